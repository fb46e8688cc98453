// Fuzz target: hwloc XML topologies, as `--topology FILE.xml` reads them,
// then what every command does with a Machine (describe it, export it).
#include <string>

#include "common/error.hpp"
#include "fuzz/fuzz_target.hpp"
#include "topologies/machine.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        const numacoll::topo::Machine machine = numacoll::topo::load_xml_text(text, "fuzzed input");
        (void)numacoll::topo::describe(machine);
        (void)numacoll::topo::to_json(machine);
    } catch (const numacoll::Error&) {
    }
    return 0;
}
