#include "models/registry.hpp"

#include "models/allreduce/dissemination.hpp"
#include "models/allreduce/tiled.hpp"
#include "models/allreduce/tree.hpp"
#include "models/barrier/tree.hpp"
#include "models/bcast/tree.hpp"
#include "models/reduce/tree.hpp"

namespace numacoll::models {

const std::vector<ModelInfo>& model_registry() {
    static const std::vector<ModelInfo> registry = {allreduce_tree_model(), allreduce_tiled_model(),
                                                    allreduce_dissemination_model(), reduce_tree_model(),
                                                    bcast_tree_model(),           barrier_tree_model()};
    return registry;
}

const ModelInfo* find_model(sched::Collective collective, const std::string& algorithm) {
    for (const auto& model : model_registry())
        if (model.collective == collective && model.name == algorithm) return &model;
    return nullptr;
}

const std::vector<WithoutModel>& algorithms_without_model() {
    using C = sched::Collective;
    static const std::vector<WithoutModel> list = [] {
        const std::string measured = "its sources measure it and give no closed form";
        std::vector<WithoutModel> all = {
            {C::allreduce, "tiled-naive", "a baseline HPDC'13 measures (section 3.2) without a closed form"},
            {C::allreduce, "tiled-cyclic", "a baseline HPDC'13 measures (section 3.2) without a closed form"},
            {C::bcast, "leader", measured},
            {C::barrier, "dissemination", "HPDC'13 equation (6) at m = 0; numacoll has no model of it"},
            {C::scatter, "tree", measured},
            {C::gather, "linear", measured},
            {C::gather, "binomial", measured},
            {C::gather, "leader", measured},
            {C::allgather, "ring", measured},
            {C::allgather, "recursive-doubling", measured},
            {C::allgather, "leader", measured},
            {C::pingpong, "direct", "2 (o_s + L + o_r) + 2 m G in LogGP terms; numacoll has no model of it"},
        };
        for (const char* flat : {"linear", "chain", "pipeline", "binary", "binomial", "in-order-binary"})
            for (const std::string prefix : {"", "hier-"}) all.push_back({C::reduce, prefix + flat, measured});
        for (const char* flat : {"linear", "chain", "pipeline", "split-binary", "binary", "binomial"})
            for (const std::string prefix : {"", "hier-"}) all.push_back({C::bcast, prefix + flat, measured});
        return all;
    }();
    return list;
}

}  // namespace numacoll::models
