#include "algorithms/patterns/internode_allreduce.hpp"

#include <fmt/format.h>

#include "algorithms/patterns/internode.hpp"
#include "algorithms/patterns/pieces.hpp"
#include "common/error.hpp"

namespace numacoll::algo {

InternodeAlgorithm parse_internode_algorithm(const std::string& text) {
    if (text == "recursive-doubling") return InternodeAlgorithm::recursive_doubling;
    if (text == "binomial") return InternodeAlgorithm::binomial;
    if (text == "ring") return InternodeAlgorithm::ring;
    if (text == "rabenseifner") return InternodeAlgorithm::rabenseifner;
    throw UsageError(fmt::format(
        "option internode must be recursive-doubling, ring, rabenseifner or binomial (got '{}')", text));
}

OptionInfo internode_option() {
    return {"internode", "recursive-doubling",
            "allreduce among node roots: recursive-doubling, ring, rabenseifner or binomial",
            {"recursive-doubling", "ring", "rabenseifner", "binomial"}};
}

void internode_allreduce(InternodeAlgorithm algorithm, ScheduleBuilder& builder, const std::vector<int>& roots,
                         ChunkState& state, const std::vector<int>& outputs, TempPool& scratch) {
    if (roots.size() <= 1) return;
    switch (algorithm) {
        case InternodeAlgorithm::recursive_doubling:
            return internode_recursive_doubling(builder, roots, state, outputs, scratch);
        case InternodeAlgorithm::binomial: {
            const HomeOf output = [&](int rank) { return Range{outputs[rank], state.offset, state.bytes}; };
            internode_binomial_reduce(builder, roots, state, output, scratch);
            return internode_binomial_bcast(builder, roots, state, output);
        }
        // Every hand-over crosses nodes: no fresh partials, no ready flags.
        case InternodeAlgorithm::ring: return ring_allreduce(builder, roots, state, outputs, {scratch, scratch});
        case InternodeAlgorithm::rabenseifner:
            return rabenseifner_allreduce(builder, roots, state, outputs, {scratch, scratch});
    }
}

}  // namespace numacoll::algo
