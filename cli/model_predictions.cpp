#include "cli/model_predictions.hpp"

#include <fmt/format.h>

#include "algorithms/registry.hpp"
#include "common/error.hpp"
#include "models/registry.hpp"
#include "models/shape.hpp"

namespace numacoll::cli {

sched::CollectiveSpec spec_with_defaults(sched::CollectiveSpec spec, const algo::Layout& layout) {
    const algo::AlgorithmInfo& info = algo::find_algorithm(spec.collective, spec.algorithm);
    for (const auto& [key, value] : spec.options) {
        bool known = false;
        for (const auto& option : info.options) known = known || option.name == key;
        if (!known) throw UsageError(fmt::format("algorithm '{}' has no option '{}'", info.name, key));
    }
    for (const auto& option : info.options) spec.options.emplace(option.name, option.default_value);
    sched::check_datatype(spec);
    if (spec.collective == sched::Collective::barrier && spec.bytes != 0)
        throw UsageError(fmt::format("a barrier moves no data: its size must be 0 bytes (got {})", spec.bytes));
    if (spec.root < 0 || spec.root >= layout.size())
        throw UsageError(fmt::format("root {} does not exist: ranks are 0..{}", spec.root, layout.size() - 1));
    return spec;
}

std::optional<double> model_ns(const sched::CollectiveSpec& spec, const algo::Layout& layout,
                               const costs::Params& params) {
    const models::ModelInfo* model = models::find_model(spec.collective, spec.algorithm);
    if (!model) return std::nullopt;
    return model->predict(spec, models::node_shape(layout), params);
}

}  // namespace numacoll::cli
