// Fuzz target: schedules in JSON (`--from FILE.json`). What is accepted must
// write back to the same JSON and to text that reads again.
#include <cstdlib>
#include <string>

#include "common/error.hpp"
#include "fuzz/fuzz_target.hpp"
#include "schedule/schedule_io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    numacoll::sched::Schedule schedule;
    try {
        schedule = numacoll::sched::schedule_from_json(text);
    } catch (const numacoll::Error&) {
        return 0;
    }
    const std::string written = numacoll::sched::to_json(schedule);
    if (numacoll::sched::to_json(numacoll::sched::schedule_from_json(written)) != written) std::abort();
    if (!(numacoll::sched::schedule_from_text(numacoll::sched::to_text(schedule)) == schedule)) std::abort();
    return 0;
}
