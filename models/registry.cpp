#include "models/registry.hpp"

#include "models/model.hpp"
#include "models/shape.hpp"

namespace numacoll::models {

// The models of algorithms/catalog.def, declared here: a model's file needs
// no header of its own.
#define NUMACOLL_ALGORITHM(generator, model) ModelInfo model();
#define NUMACOLL_ALGORITHM_FAMILY(generators, models) std::vector<ModelInfo> models();
#include "algorithms/catalog.def"
#undef NUMACOLL_ALGORITHM
#undef NUMACOLL_ALGORITHM_FAMILY

const std::vector<ModelInfo>& model_registry() {
    static const std::vector<ModelInfo> registry = [] {
        std::vector<ModelInfo> all;
#define NUMACOLL_ALGORITHM(generator, model) all.push_back(model());
#define NUMACOLL_ALGORITHM_FAMILY(generators, models) \
    for (auto& info : models()) all.push_back(std::move(info));
#include "algorithms/catalog.def"
#undef NUMACOLL_ALGORITHM
#undef NUMACOLL_ALGORITHM_FAMILY
        return all;
    }();
    return registry;
}

const ModelInfo* find_model(sched::Collective collective, const std::string& algorithm) {
    for (const auto& model : model_registry())
        if (model.collective == collective && model.name == algorithm) return &model;
    return nullptr;
}

std::optional<double> model_ns(const sched::CollectiveSpec& spec, const algo::Layout& layout,
                               const costs::Params& params) {
    const ModelInfo* model = find_model(spec.collective, spec.algorithm);
    if (!model) return std::nullopt;
    return model->predict(spec, node_shape(layout), params);
}

const std::vector<WithoutModel>& algorithms_without_model() {
    // Every algorithm has a closed form; the list stays for algorithms added without one.
    static const std::vector<WithoutModel> none;
    return none;
}

}  // namespace numacoll::models
