#include "cli/mpi_failures.hpp"

#include <fmt/format.h>

#include <iostream>

#include "common/error.hpp"

namespace numacoll::cli {

namespace {

std::string line_from(const exec::MpiWorld& world, const std::string& what, const char* unit) {
    return world.size() > 1 ? fmt::format("numacoll: {} {}: {}", unit, world.rank(), what)
                            : fmt::format("numacoll: {}", what);
}

}  // namespace

void say_from_process(const exec::MpiWorld& world, const std::string& what, const char* unit) {
    std::cerr << line_from(world, what, unit) << "\n";
}

int agree_on(const exec::MpiWorld& world, const std::function<void()>& setup, const char* unit) {
    int code = 0;
    std::string failure;
    try {
        setup();
    } catch (const UsageError& error) {
        code = 2, failure = error.what();
    } catch (const std::exception& error) {
        code = 1, failure = error.what();
    }
    const exec::MpiWorld::Agreement agreed = world.agree(code);
    if (agreed.code != 0 && world.rank() == agreed.first_failing_process) say_from_process(world, failure, unit);
    return agreed.code;
}

int run_agreed(const exec::MpiWorld& world, const std::function<void()>& work, const char* unit) {
    try {
        work();
    } catch (const exec::PeerFailure& failure) {  // another process said why
        return failure.exit_code;
    } catch (const AgreedFailure& failure) {  // the others end with PeerFailure
        say_from_process(world, failure.what(), unit);
        return failure.exit_code;
    } catch (const UsageError& error) {  // agreed: the others end with PeerFailure
        say_from_process(world, error.what(), unit);
        return 2;
    } catch (const CheckError& error) {  // agreed, likewise
        say_from_process(world, error.what(), unit);
        return 1;
    } catch (const std::exception& error) {  // this process alone: the others would wait for it
        world.abort(line_from(world, error.what(), unit), 1);
    }
    return 0;
}

int prepare_then_run(const exec::MpiWorld* world, const std::function<void()>& prepare,
                     const std::function<void()>& work, const char* unit) {
    if (world == nullptr) {
        prepare();
        work();
        return 0;
    }
    if (const int code = agree_on(*world, prepare, unit)) return code;
    return run_agreed(*world, work, unit);
}

void on_writer(const exec::MpiWorld& world, const std::function<void()>& write, int writer) {
    int code = 0;
    std::string failure;
    if (world.rank() == writer) {
        try {
            write();
        } catch (const UsageError& error) {
            code = 2, failure = error.what();
        } catch (const std::exception& error) {
            code = 1, failure = error.what();
        }
    }
    const exec::MpiWorld::Agreement agreed = world.agree(code);
    if (agreed.code == 0) return;
    if (code != 0) throw AgreedFailure(failure, code);
    throw exec::PeerFailure(agreed.code);
}

}  // namespace numacoll::cli
