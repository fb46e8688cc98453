#include "interpose/selection.hpp"

#include <limits>
#include <optional>

#include "algorithms/registry.hpp"
#include "models/registry.hpp"
#include "models/shape.hpp"

namespace numacoll::interpose {

namespace {

std::optional<double> predicted_ns(const algo::AlgorithmInfo& info, sched::CollectiveSpec spec,
                                   const models::NodeShape& shape, const costs::Params& params) {
    const models::ModelInfo* model = models::find_model(info.collective, info.name);
    if (model == nullptr) return std::nullopt;
    spec.algorithm = info.name;
    for (const auto& option : info.options) spec.options.emplace(option.name, option.default_value);
    try {
        return model->predict(spec, shape, params);
    } catch (const std::exception&) {
        return std::nullopt;  // a shape or size the model does not take
    }
}

}  // namespace

Choice choose_algorithm(const CallKey& key, const algo::Layout& layout, const Settings& settings,
                        const costs::Params& params) {
    if (const auto forced = settings.forced.find(key.collective); forced != settings.forced.end())
        return {forced->second, {}, "forced"};
    if (const tune::SelectionRow* row = tune::row_for_call(settings.selection, key.collective, layout.nodes,
                                                           layout.size(), key.bytes))
        return {row->winner.algorithm, row->winner.options, "tuned"};
    const sched::CollectiveSpec spec = spec_of(key, 0);
    const models::NodeShape shape = models::node_shape(layout);
    double best_ns = std::numeric_limits<double>::infinity(), native_ns = best_ns;
    std::string best;
    for (const algo::AlgorithmInfo& info : algo::algorithm_registry()) {
        if (info.collective != key.collective) continue;
        const std::optional<double> time = predicted_ns(info, spec, shape, params);
        if (!time) continue;
        if (info.ranks == sched::RankKind::process) {
            // Open MPI's flat algorithms, as its tuned component runs them;
            // their hierarchical forms need a component it leaves off.
            if (info.name.rfind("hier-", 0) != 0) native_ns = std::min(native_ns, *time);
        } else if (*time < best_ns) {
            best_ns = *time;
            best = info.name;
        }
    }
    if (best.empty() || native_ns < best_ns) return {native_algorithm, {}, "models"};
    return {best, {}, "models"};
}

}  // namespace numacoll::interpose
