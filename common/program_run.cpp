#include "common/program_run.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <utility>

#include "common/error.hpp"
#include "common/output_file.hpp"

extern char** environ;

namespace numacoll {

ProgramRun run_program(std::vector<std::string> arguments, bool capture, const std::string& input,
                       const std::vector<std::string>& environment) {
    ProgramRun run;
    std::vector<char*> argv;
    for (auto& argument : arguments) argv.push_back(argument.data());
    argv.push_back(nullptr);
    std::vector<std::string> added = environment;
    std::vector<char*> envp;
    for (char** entry = environ; *entry != nullptr; ++entry) envp.push_back(*entry);
    for (auto& entry : added) envp.push_back(entry.data());
    envp.push_back(nullptr);
    int output_pipe[2] = {-1, -1};
    int input_pipe[2] = {-1, -1};
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    const auto close_all = [&] {
        for (int fd : {output_pipe[0], output_pipe[1], input_pipe[0], input_pipe[1]})
            if (fd >= 0) ::close(fd);
    };
    if ((capture && ::pipe2(output_pipe, O_CLOEXEC) != 0) || (!input.empty() && ::pipe2(input_pipe, O_CLOEXEC) != 0)) {
        close_all();
        posix_spawn_file_actions_destroy(&actions);
        return run;
    }
    if (capture) posix_spawn_file_actions_adddup2(&actions, output_pipe[1], STDOUT_FILENO);
    if (!input.empty()) posix_spawn_file_actions_adddup2(&actions, input_pipe[0], STDIN_FILENO);
    // Standard error goes to an unlinked file, read once the program is done:
    // two pipes read one after the other could fill and stall it.
    int error_fd = -1;
    if (capture) {
        char error_path[] = "/tmp/numacoll-stderr-XXXXXX";
        error_fd = ::mkostemp(error_path, O_CLOEXEC);
        if (error_fd >= 0) {
            ::unlink(error_path);
            posix_spawn_file_actions_adddup2(&actions, error_fd, STDERR_FILENO);
        }
    }
    pid_t child = 0;
    const int spawned = ::posix_spawnp(&child, argv[0], &actions, nullptr, argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&actions);
    if (spawned == 0) set_child_to_stop(child);
    for (int* end : {&output_pipe[1], &input_pipe[0]})
        if (*end >= 0) ::close(std::exchange(*end, -1));
    // The input from another thread: a program may print before it has read all of it.
    std::thread feeder;
    if (input_pipe[1] >= 0) {
        const int fd = std::exchange(input_pipe[1], -1);
        feeder = std::thread([fd, &input, spawned] {
            for (std::size_t done = 0; spawned == 0 && done < input.size();) {
                const ssize_t n = ::write(fd, input.data() + done, input.size() - done);
                if (n < 0 && errno == EINTR) continue;
                if (n <= 0) break;
                done += static_cast<std::size_t>(n);
            }
            ::close(fd);
        });
    }
    if (capture) {
        char buffer[4096];
        for (ssize_t n; spawned == 0 && (n = ::read(output_pipe[0], buffer, sizeof buffer)) != 0;) {
            if (n < 0 && errno == EINTR) continue;
            if (n < 0) break;
            run.output.append(buffer, static_cast<std::size_t>(n));
        }
    }
    if (feeder.joinable()) feeder.join();
    close_all();
    int status = 0;
    if (spawned == 0)
        while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
        }
    set_child_to_stop(0);
    if (error_fd >= 0) {
        char buffer[4096];
        for (off_t at = 0; spawned == 0;) {
            const ssize_t n = ::pread(error_fd, buffer, sizeof buffer, at);
            if (n <= 0) break;
            run.errors.append(buffer, static_cast<std::size_t>(n));
            at += n;
        }
        ::close(error_fd);
    }
    if (spawned == 0 && WIFEXITED(status)) run.status = WEXITSTATUS(status);
    return run;
}

}  // namespace numacoll
