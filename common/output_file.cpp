#include "common/output_file.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <utility>
#include <iostream>

#include "common/error.hpp"

namespace numacoll {

namespace {

// The interrupt handler's view of the open outputs. A fixed table of atomic
// pointers is what a signal handler may read; a process with more outputs
// open at once than it holds still writes them, only without the cleanup.
constexpr std::size_t pending_slots = 64;
std::array<std::atomic<const OutputFile::Pending*>, pending_slots> pending_outputs{};
static_assert(std::atomic<const OutputFile::Pending*>::is_always_lock_free, "the handler reads these pointers");
static_assert(std::atomic<off_t>::is_always_lock_free, "the handler reads how much to keep");
static_assert(std::atomic<pid_t>::is_always_lock_free, "the handler reads the child to stop");

int publish(const OutputFile::Pending* pending) {
    for (std::size_t slot = 0; slot < pending_outputs.size(); ++slot) {
        const OutputFile::Pending* expected = nullptr;
        if (pending_outputs[slot].compare_exchange_strong(expected, pending)) return static_cast<int>(slot);
    }
    return -1;
}

void withdraw(int slot) {
    if (slot >= 0) pending_outputs[static_cast<std::size_t>(slot)].store(nullptr);
}

constexpr int cleanup_signals[] = {SIGINT, SIGTERM, SIGHUP};
// The actions the signals had before install_interrupt_cleanup(), by signal number.
struct sigaction previous_actions[NSIG];
bool installed[NSIG] = {};

std::array<std::atomic<const PendingFolder*>, 8> pending_folders{};
std::atomic<pid_t> child_to_stop{0};

extern "C" void on_interrupt(int signal) {
    // Only async-signal-safe calls: kill, ftruncate, rename, unlink, rmdir,
    // open, write, close, signal, raise.
    if (const pid_t child = child_to_stop.load(); child > 0) ::kill(child, SIGTERM);
    for (auto& slot : pending_outputs) {
        const OutputFile::Pending* pending = slot.load();
        if (pending == nullptr) continue;
        const off_t keep = pending->complete_bytes.load();
        if (keep >= 0 && ::ftruncate(pending->fd, keep) == 0)
            ::rename(pending->temporary, pending->target);
        else
            ::unlink(pending->temporary);
    }
    for (auto& slot : pending_folders)
        if (const PendingFolder* folder = slot.load()) settle_unfinished_folder(*folder);
    std::signal(signal, SIG_DFL);
    std::raise(signal);
}

// True when `fd` is open for writing.
bool writable_descriptor(int fd) {
    const int flags = ::fcntl(fd, F_GETFL);
    return flags >= 0 && ((flags & O_ACCMODE) == O_WRONLY || (flags & O_ACCMODE) == O_RDWR);
}

// The descriptor a path names by itself (/dev/stdout, /dev/fd/2...), or -1.
int descriptor_named(const std::string& path) {
    if (path == "-" || path == "/dev/stdout") return STDOUT_FILENO;
    if (path == "/dev/stderr") return STDERR_FILENO;
    for (const char* prefix : {"/dev/fd/", "/proc/self/fd/"}) {
        const std::string start(prefix);
        if (path.rfind(start, 0) != 0 || path.size() == start.size()) continue;
        int fd = 0;
        for (std::size_t i = start.size(); i < path.size(); ++i) {
            if (path[i] < '0' || path[i] > '9' || fd > 1'000'000) return -1;
            fd = fd * 10 + (path[i] - '0');
        }
        return fd;
    }
    return -1;
}

}  // namespace

std::string final_target(const std::string& path) {
    std::string current = path;
    for (int hop = 0; hop < 40; ++hop) {
        struct stat info {};
        if (::lstat(current.c_str(), &info) != 0 || !S_ISLNK(info.st_mode)) return current;
        std::string link(4096, '\0');
        const ssize_t length = ::readlink(current.c_str(), link.data(), link.size());
        if (length < 0) return current;
        link.resize(static_cast<std::size_t>(length));
        if (link.front() != '/') {
            const auto slash = current.rfind('/');
            if (slash != std::string::npos) link = current.substr(0, slash + 1) + link;
        }
        current = link;
    }
    throw UsageError(fmt::format("cannot write '{}': too many levels of symbolic links", path));
}

OutputFile::OutputFile(std::string path) : path_(std::move(path)) {
    const auto refuse = [&](int error) {
        return UsageError(fmt::format("cannot write '{}': {}", path_, std::strerror(error)));
    };
    if (path_.empty()) throw UsageError("an output path is empty (use - for standard output)");
    int fd = descriptor_named(path_);
    if (fd < 0) {
        target_ = final_target(path_);
        fd = descriptor_named(target_);
    }
    if (fd >= 0) {
        if (!writable_descriptor(fd)) throw refuse(EBADF);
        fd_ = fd;
        own_fd_ = false;
        return;
    }
    struct stat info {};
    const bool exists = ::stat(target_.c_str(), &info) == 0;
    if (exists && S_ISDIR(info.st_mode)) throw refuse(EISDIR);
    if (exists && !S_ISREG(info.st_mode)) {
        // A device, a FIFO: written in place, never replaced.
        fd_ = ::open(target_.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
        if (fd_ < 0) throw refuse(errno);
        return;
    }
    for (int attempt = 0; fd_ < 0; ++attempt) {
        temporary_ = fmt::format("{}.tmp{}{}", target_, ::getpid(), attempt == 0 ? "" : fmt::format(".{}", attempt));
        fd_ = ::open(temporary_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd_ < 0 && (errno != EEXIST || attempt > 100)) {
            const int error = errno;
            temporary_.clear();
            throw refuse(error);
        }
    }
    if (exists) {
        // Keep what the replaced file was: its permissions, and its owner where allowed.
        ::fchmod(fd_, info.st_mode & 07777);
        // Allowed for root, or for the owner's own group; otherwise this process's owner stays.
        [[maybe_unused]] const int owner_kept = ::fchown(fd_, info.st_uid, info.st_gid);
    }
    pending_.temporary = temporary_.c_str();
    pending_.target = target_.c_str();
    pending_.fd = fd_;
    slot_ = publish(&pending_);
}

OutputFile::~OutputFile() {
    withdraw(slot_);
    if (fd_ >= 0 && own_fd_) ::close(fd_);
    if (!committed_ && !temporary_.empty()) ::unlink(temporary_.c_str());
}

void OutputFile::write(std::string_view text) {
    if (committed_) throw Error(fmt::format("cannot write '{}': it was already closed", path_));
    // Text sent to a standard stream must not overtake what iostreams hold.
    if (!own_fd_) {
        std::cout.flush();
        std::cerr.flush();
    }
    for (std::size_t done = 0; done < text.size();) {
        const ssize_t n = ::write(fd_, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) throw Error(fmt::format("cannot write '{}': {}", path_, std::strerror(n < 0 ? errno : EIO)));
        done += static_cast<std::size_t>(n);
    }
    written_bytes_ += static_cast<off_t>(text.size());
}

void OutputFile::commit() {
    if (committed_) return;
    // Out of the handler's table first: the descriptor it would cut is about to close.
    withdraw(slot_);
    slot_ = -1;
    const int fd = own_fd_ ? std::exchange(fd_, -1) : -1;
    if (fd >= 0 && ::close(fd) != 0)
        throw Error(fmt::format("cannot write '{}': {}", path_, std::strerror(errno)));
    if (!temporary_.empty() && ::rename(temporary_.c_str(), target_.c_str()) != 0)
        throw Error(fmt::format("cannot write '{}': {}", path_, std::strerror(errno)));
    committed_ = true;
}

void OutputFile::commit_complete() {
    const off_t keep = pending_.complete_bytes.load();
    if (committed_ || keep < 0) return;
    if (!temporary_.empty() && fd_ >= 0 && ::ftruncate(fd_, keep) != 0)
        throw Error(fmt::format("cannot write '{}': {}", path_, std::strerror(errno)));
    commit();
}

void write_output_file(const std::string& path, std::string_view text) {
    OutputFile file(path);
    file.write(text);
    file.commit();
}

void discard_earlier_output(const std::string& path) {
    struct stat info {};
    if (::lstat(path.c_str(), &info) != 0) return;
    if (S_ISREG(info.st_mode)) {
        ::unlink(path.c_str());
        return;
    }
    // A link to a regular file: the file is the earlier output, the link is the user's.
    if (S_ISLNK(info.st_mode) && ::stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode)) {
        const int fd = ::open(path.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
        if (fd >= 0) ::close(fd);
    }
}

int publish_pending_folder(const PendingFolder* folder) {
    for (std::size_t slot = 0; slot < pending_folders.size(); ++slot) {
        const PendingFolder* expected = nullptr;
        if (pending_folders[slot].compare_exchange_strong(expected, folder)) return static_cast<int>(slot);
    }
    return -1;
}

void withdraw_pending_folder(int slot) {
    if (slot >= 0) pending_folders[static_cast<std::size_t>(slot)].store(nullptr);
}

void settle_unfinished_folder(const PendingFolder& folder) {
    ::unlink(folder.marker);
    if (::rmdir(folder.staging) == 0) {
        if (folder.created != nullptr) ::rmdir(folder.created);
        return;
    }
    // Something finished: the marker goes back, naming the run, and the
    // folder takes its visible name.
    const int fd = ::open(folder.marker, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd >= 0) {
        [[maybe_unused]] const ssize_t written = ::write(fd, folder.marker_text, folder.marker_bytes);
        ::close(fd);
    }
    ::rename(folder.staging, folder.unfinished);
}

void set_child_to_stop(pid_t child) { child_to_stop.store(child); }

InterruptsHeld::InterruptsHeld() {
    sigset_t signals;
    sigemptyset(&signals);
    for (const int signal : cleanup_signals) sigaddset(&signals, signal);
    ::pthread_sigmask(SIG_BLOCK, &signals, &previous_);
}

InterruptsHeld::~InterruptsHeld() { ::pthread_sigmask(SIG_SETMASK, &previous_, nullptr); }

void install_interrupt_cleanup() {
    for (const int signal : cleanup_signals) {
        struct sigaction before {};
        if (::sigaction(signal, nullptr, &before) != 0 || before.sa_handler == SIG_IGN) continue;
        struct sigaction action {};
        action.sa_handler = on_interrupt;
        sigemptyset(&action.sa_mask);
        for (const int other : cleanup_signals) sigaddset(&action.sa_mask, other);
        if (::sigaction(signal, &action, nullptr) != 0) continue;
        previous_actions[signal] = before;
        installed[signal] = true;
    }
}

void reset_interrupt_cleanup() {
    for (const int signal : cleanup_signals)
        if (installed[signal]) ::sigaction(signal, &previous_actions[signal], nullptr);
}

void block_interrupts_in_this_thread() {
    sigset_t signals;
    sigemptyset(&signals);
    for (const int signal : cleanup_signals) sigaddset(&signals, signal);
    ::pthread_sigmask(SIG_BLOCK, &signals, nullptr);
}

}  // namespace numacoll
