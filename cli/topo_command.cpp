#include <iostream>

#include "cli/commands.hpp"
#include "cli/common.hpp"

namespace numacoll::cli {

CommandRun add_topo_command(CLI::App& app) {
    auto* command = app.add_subcommand("topo", "print the machine model hwloc gives for a topology");
    auto options = std::make_shared<MachineOptions>();
    auto json = std::make_shared<bool>(false);
    options->add_to(*command, "live", false);
    command->add_flag("--json", *json, "print the whole model as JSON");
    command->footer("Examples:\n  numacoll topo\n  numacoll topo --topology magnycours --json\n"
                    "  numacoll topo --topology synthetic:\"Package:2 L3Cache:1 Core:6 PU:2\"");
    return [options, json] {
        const auto machine = options->load();
        std::cout << (*json ? topo::to_json(*machine) : topo::describe(*machine));
        return 0;
    };
}

}  // namespace numacoll::cli
