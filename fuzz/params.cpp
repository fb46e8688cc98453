// Fuzz target: params files (`--params FILE.json`). What is accepted must
// write back to JSON that reads again to the same figures.
#include <cstdlib>
#include <string>

#include "common/error.hpp"
#include "costs/params.hpp"
#include "fuzz/fuzz_target.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    numacoll::costs::Params params;
    try {
        params = numacoll::costs::parse_params(text, "fuzzed input");
    } catch (const numacoll::Error&) {
        return 0;
    }
    const std::string written = numacoll::costs::params_to_json(params);
    // Accepted once, accepted again: a refusal here is a finding.
    const numacoll::costs::Params again = numacoll::costs::parse_params(written, "written back");
    if (numacoll::costs::params_to_json(again) != written) std::abort();
    return 0;
}
