// Fuzz target: schedules in numacoll's text format (`--from FILE`). What is
// accepted must write back to the same text and to JSON that reads again.
#include <cstdlib>
#include <string>

#include "common/error.hpp"
#include "fuzz/fuzz_target.hpp"
#include "schedule/schedule_io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    numacoll::sched::Schedule schedule;
    try {
        schedule = numacoll::sched::schedule_from_text(text);
    } catch (const numacoll::Error&) {
        return 0;
    }
    const std::string written = numacoll::sched::to_text(schedule);
    if (numacoll::sched::to_text(numacoll::sched::schedule_from_text(written)) != written) std::abort();
    if (!(numacoll::sched::schedule_from_json(numacoll::sched::to_json(schedule)) == schedule)) std::abort();
    (void)numacoll::sched::to_dot(schedule);
    return 0;
}
