#include "exec/ompi_tuned.hpp"

#include <fmt/format.h>

#include "common/error.hpp"

namespace numacoll::exec {

const std::vector<OmpiTunedAlgorithm>& ompi_tuned_algorithms() {
    using C = sched::Collective;
    static const std::vector<OmpiTunedAlgorithm> table = {
        {C::allreduce, "linear", "basic_linear", 1},
        {C::allreduce, "nonoverlapping", "nonoverlapping", 2},
        {C::allreduce, "recursive-doubling", "recursive_doubling", 3},
        {C::allreduce, "ring", "ring", 4},
        {C::allreduce, "segmented-ring", "segmented_ring", 5},
        {C::allreduce, "rabenseifner", "rabenseifner", 6},
        {C::bcast, "linear", "basic_linear", 1},
        {C::bcast, "chain", "chain", 2},
        {C::bcast, "pipeline", "pipeline", 3},
        {C::bcast, "split-binary", "split_binary_tree", 4},
        {C::bcast, "binary", "binary_tree", 5},
        {C::bcast, "binomial", "binomial", 6},
        {C::bcast, "knomial", "knomial", 7},
        {C::bcast, "scatter-allgather", "scatter_allgather", 8},
        {C::bcast, "scatter-allgather-ring", "scatter_allgather_ring", 9},
        {C::reduce, "linear", "linear", 1},
        {C::reduce, "chain", "chain", 2},
        {C::reduce, "pipeline", "pipeline", 3},
        {C::reduce, "binary", "binary", 4},
        {C::reduce, "binomial", "binomial", 5},
        {C::reduce, "in-order-binary", "in-order_binary", 6},
        {C::reduce, "rabenseifner", "rabenseifner", 7},
        {C::barrier, "linear", "linear", 1},
        {C::barrier, "double-ring", "double_ring", 2},
        {C::barrier, "recursive-doubling", "recursive_doubling", 3},
        {C::barrier, "dissemination", "bruck", 4},  // Bruck's barrier is the dissemination barrier
        {C::barrier, "two-proc", "two_proc", 5},
        {C::barrier, "binomial", "tree", 6},
        {C::scatter, "linear", "basic_linear", 1},
        {C::scatter, "binomial", "binomial", 2},
        {C::scatter, "linear-nb", "linear_nb", 3},
        {C::gather, "linear", "basic_linear", 1},
        {C::gather, "binomial", "binomial", 2},
        {C::gather, "linear-sync", "linear_sync", 3},
        {C::allgather, "linear", "linear", 1},
        {C::allgather, "bruck", "bruck", 2},
        {C::allgather, "recursive-doubling", "recursive_doubling", 3},
        {C::allgather, "ring", "ring", 4},
        {C::allgather, "neighbor-exchange", "neighbor", 5},
        {C::allgather, "two-proc", "two_proc", 6},
        {C::reduce_scatter, "nonoverlapping", "non-overlapping", 1},
        {C::reduce_scatter, "recursive-halving", "recursive_halving", 2},
        {C::reduce_scatter, "ring", "ring", 3},
        {C::reduce_scatter, "butterfly", "butterfly", 4},
        {C::alltoall, "linear", "linear", 1},
        {C::alltoall, "pairwise", "pairwise", 2},
        {C::alltoall, "modified-bruck", "modified_bruck", 3},
        {C::alltoall, "linear-sync", "linear_sync", 4},
        {C::alltoall, "two-proc", "two_proc", 5},
    };
    return table;
}

const OmpiTunedAlgorithm& find_ompi_tuned_algorithm(sched::Collective collective, const std::string& name) {
    std::string known;
    for (const OmpiTunedAlgorithm& algorithm : ompi_tuned_algorithms()) {
        if (algorithm.collective != collective) continue;
        if (algorithm.name == name) return algorithm;
        known += (known.empty() ? "" : ", ") + algorithm.name;
    }
    if (known.empty())
        throw UsageError(fmt::format("Open MPI's coll/tuned has no algorithms for {}", sched::to_string(collective)));
    throw UsageError(fmt::format("Open MPI's coll/tuned has no {} algorithm '{}' (it has {})",
                                 sched::to_string(collective), name, known));
}

std::string ompi_algorithm_parameter(sched::Collective collective) {
    return fmt::format("coll_tuned_{}_algorithm", sched::to_string(collective));
}

std::string ompi_segment_parameter(sched::Collective collective) {
    return fmt::format("coll_tuned_{}_algorithm_segmentsize", sched::to_string(collective));
}

}  // namespace numacoll::exec
