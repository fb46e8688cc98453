// The public Machine, Params and Layout (numacoll/machine.hpp) over
// topologies/, costs/, calibrate/ and algorithms/layout.
#include "numacoll/machine.hpp"

#include "algorithms/layout.hpp"
#include "api/access.hpp"
#include "calibrate/calibration.hpp"
#include "common/error.hpp"
#include "costs/params.hpp"
#include "topologies/machine.hpp"

namespace numacoll {

using api::Access;

Machine Machine::load(const std::string& spec) {
    return Access::wrap(std::make_shared<const topo::Machine>(topo::load_machine(spec)));
}

std::vector<std::string> Machine::bundled_names() { return topo::bundled_names(); }

const std::string& Machine::name() const { return machine_->name; }
const std::string& Machine::source() const { return machine_->source; }
int Machine::cores() const { return machine_->core_count(); }
int Machine::pus() const { return machine_->pu_count(); }
int Machine::packages() const { return static_cast<int>(machine_->packages.size()); }
int Machine::numa_nodes() const { return static_cast<int>(machine_->numa_nodes.size()); }
bool Machine::is_this_system() const { return machine_->this_system; }
std::string Machine::describe() const { return topo::describe(*machine_); }

Params Params::for_machine(const Machine& machine, const std::string& spec) {
    return Access::wrap(costs::params_for(Access::of(machine), spec));
}

Params Params::calibrate(const Machine& live, bool quick, const std::string& base,
                         const std::function<void(const std::string& line)>& progress) {
    if (!live.is_this_system())
        throw UsageError("calibration measures the machine it runs on: give Machine::load(\"live\"), not " +
                         live.source());
    calibrate::CalibrationOptions options;
    options.quick = quick;
    options.base = base;
    options.progress = progress;
    return Access::wrap(calibrate::calibrate_machine(Access::of(live), options).params);
}

const std::string& Params::origin() const { return params_->origin; }
bool Params::generic() const { return params_->generic_fallback; }
std::string Params::to_json() const { return costs::params_to_json(*params_); }

Layout Layout::place(const Machine& machine, const LayoutOptions& options) {
    algo::LayoutOptions internal;
    internal.nodes = options.nodes;
    internal.ranks_per_node = options.ranks_per_node;
    internal.placement = algo::parse_placement(options.placement);
    internal.pu_list = options.pus;
    internal.oversubscribe = options.oversubscribe;
    return Access::wrap(algo::make_layout(Access::shared(machine), internal));
}

int Layout::ranks() const { return layout_->size(); }
int Layout::nodes() const { return layout_->nodes; }
int Layout::ranks_per_node() const { return layout_->ranks_per_node; }

RankPlace Layout::rank(int rank) const {
    if (rank < 0 || rank >= layout_->size())
        throw UsageError("rank " + std::to_string(rank) + " does not exist: ranks are 0.." +
                         std::to_string(layout_->size() - 1));
    const algo::RankPlace& place = layout_->ranks[static_cast<std::size_t>(rank)];
    return {place.node, place.core, place.pu, place.numa, place.package};
}

Machine Layout::machine() const { return Access::wrap(layout_->machine); }

}  // namespace numacoll
