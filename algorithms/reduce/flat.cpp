// reduce from the flat algorithms of flat_trees.hpp:
// - flat (`linear`, `chain`, `pipeline`, `binary`, `binomial`,
//   `in-order-binary`): one algorithm over every rank in root-relative
//   order, as Open MPI's coll/tuned runs it;
// - hierarchical (`hier-<flat>`): the flat algorithm run bottom-up on each
//   level's roots group (hierarchical communicators, section 6): caches
//   first, then packages, then the network.
// Inner ranks fold into temp buffers; only the root has an output.
#include <fmt/format.h>

#include <optional>

#include "algorithms/levels.hpp"
#include "algorithms/patterns/flat_trees.hpp"
#include "algorithms/patterns/reduce_homes.hpp"
#include "algorithms/patterns/strips.hpp"
#include "algorithms/registry.hpp"

namespace numacoll::algo {

namespace {

class FlatReduce {
public:
    FlatReduce(const CollectiveSpec& spec, const Layout& layout, FlatAlgorithm algorithm, int fanout,
               std::uint64_t segment, bool hierarchical)
        : builder_(layout, spec), layout_(layout), algorithm_(algorithm), fanout_(fanout), segment_(segment),
          root_(spec.root) {
        for (int rank = 0; rank < layout.size(); ++rank) inputs_.push_back(builder_.add_input(rank, spec.bytes));
        homes_.emplace(builder_, root_, builder_.add_output(root_, spec.bytes));
        p2p_.emplace(builder_, inputs_);
        if (hierarchical) levels_.emplace(layout, root_);
    }

    Schedule generate() { return build_in_chunks(builder_, segment_, std::bind_front(&FlatReduce::run_chunk, this)); }

private:
    void run_chunk(std::uint64_t offset, std::uint64_t bytes, const std::string& tag) {
        ChunkState state = start_chunk(offset, bytes, tag, inputs_, layout_.size());
        const HomeOf home = [&](int rank) { return homes_->at(rank, offset, bytes); };
        if (levels_) {
            hierarchical(levels_->top(), state, home);
        } else {
            std::vector<int> group;
            for (int k = 0; k < layout_.size(); ++k) group.push_back((root_ + k) % layout_.size());
            run_flat_reduce(algorithm_, fanout_, *p2p_, group, state, home);
        }
        homes_->complete_root(state);
        settle(builder_, state);
    }

    void hierarchical(int group, ChunkState& state, const HomeOf& home) {
        if (levels_->group(group).children.empty()) return;
        for (int child : levels_->group(group).children) hierarchical(child, state, home);
        run_flat_reduce(algorithm_, fanout_, *p2p_, levels_->roots_group(group), state, home);
    }

    ScheduleBuilder builder_;
    const Layout& layout_;
    FlatAlgorithm algorithm_;
    int fanout_;
    std::uint64_t segment_;
    int root_;
    std::vector<int> inputs_;
    std::optional<ReduceHomes> homes_;
    std::optional<PointToPoint> p2p_;
    std::optional<LayoutLevels> levels_;
};

AlgorithmInfo reduce_flat_info(const FlatAlgorithmInfo& flat, bool hierarchical) {
    AlgorithmInfo info = flat_algorithm_info(Collective::reduce, flat, hierarchical);
    info.generate = [flat, hierarchical](const CollectiveSpec& spec, const Layout& layout, const OptionReader& options) {
        const int fanout = flat.algorithm == FlatAlgorithm::chain ? options.integer("fanout", 1) : 1;
        return FlatReduce(spec, layout, flat.algorithm, fanout, segment_bytes(options, element_bytes(spec)), hierarchical).generate();
    };
    return info;
}

}  // namespace

std::vector<AlgorithmInfo> reduce_flat_infos() {
    std::vector<AlgorithmInfo> infos;
    for (const auto& flat : flat_reduce_algorithms()) infos.push_back(reduce_flat_info(flat, false));
    for (const auto& flat : flat_reduce_algorithms()) infos.push_back(reduce_flat_info(flat, true));
    return infos;
}

}  // namespace numacoll::algo
