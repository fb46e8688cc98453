#include "models/registry.hpp"

#include "models/allgather/allgather.hpp"
#include "models/allreduce/dissemination.hpp"
#include "models/allreduce/tiled.hpp"
#include "models/allreduce/tiled_flat.hpp"
#include "models/allreduce/tree.hpp"
#include "models/barrier/dissemination.hpp"
#include "models/barrier/tree.hpp"
#include "models/bcast/leader.hpp"
#include "models/bcast/tree.hpp"
#include "models/flat_models.hpp"
#include "models/gather/gather.hpp"
#include "models/pingpong/direct.hpp"
#include "models/reduce/tree.hpp"
#include "models/scatter/tree.hpp"

namespace numacoll::models {

const std::vector<ModelInfo>& model_registry() {
    static const std::vector<ModelInfo> registry = [] {
        using C = sched::Collective;
        std::vector<ModelInfo> all = {allreduce_tree_model(),        allreduce_tiled_model(),
                                      allreduce_tiled_naive_model(), allreduce_tiled_cyclic_model(),
                                      allreduce_dissemination_model(), reduce_tree_model()};
        for (const char* flat : {"linear", "chain", "pipeline", "binary", "binomial", "in-order-binary"})
            for (bool hierarchical : {false, true}) all.push_back(flat_model(C::reduce, flat, hierarchical));
        all.push_back(bcast_tree_model());
        for (const char* flat : {"linear", "chain", "pipeline", "split-binary", "binary", "binomial"})
            for (bool hierarchical : {false, true}) all.push_back(flat_model(C::bcast, flat, hierarchical));
        for (ModelInfo model : {bcast_leader_model(), barrier_tree_model(), barrier_dissemination_model(),
                                scatter_tree_model(), gather_linear_model(), gather_binomial_model(),
                                gather_leader_model(), allgather_ring_model(), allgather_recursive_doubling_model(),
                                allgather_leader_model(), pingpong_direct_model()})
            all.push_back(std::move(model));
        return all;
    }();
    return registry;
}

const ModelInfo* find_model(sched::Collective collective, const std::string& algorithm) {
    for (const auto& model : model_registry())
        if (model.collective == collective && model.name == algorithm) return &model;
    return nullptr;
}

const std::vector<WithoutModel>& algorithms_without_model() {
    // Every algorithm has a closed form; the list stays for algorithms added without one.
    static const std::vector<WithoutModel> none;
    return none;
}

}  // namespace numacoll::models
