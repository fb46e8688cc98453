#include "algorithms/allgather/blocks.hpp"

#include <fmt/format.h>

namespace numacoll::algo {

AllgatherBlocks::AllgatherBlocks(const CollectiveSpec& spec, const Layout& layout)
    : builder_(layout, spec), ranks_(layout.size()), block_(spec.bytes), ready_(ranks_, ranks_) {
    for (int rank = 0; rank < ranks_; ++rank) {
        inputs_.push_back(builder_.add_input(rank, block_));
        outputs_.push_back(builder_.add_output(rank, block_ * ranks_));
    }
    p2p_.emplace(builder_, inputs_);
}

void AllgatherBlocks::own_block(int rank) {
    ready_.set(rank, rank, 1, p2p_->move(rank, input(rank), {}, rank, blocks(rank, rank, 1), "own"));
}

void AllgatherBlocks::pass(int src, int dst, int first, int count, const std::string& label) {
    const int task =
        p2p_->move(src, blocks(src, first, count), ready_.of(src, first, count), dst, blocks(dst, first, count), label);
    ready_.set(dst, first, count, task);
}

Schedule AllgatherBlocks::finish() {
    ready_.settle(builder_, "allgather:done");
    return builder_.finish();
}

Schedule allgather_in_rounds(const CollectiveSpec& spec, const Layout& layout, const AllgatherRounds& rounds) {
    ScheduleBuilder builder(layout, spec);
    const int ranks = layout.size();
    const std::uint64_t block = spec.bytes;
    std::vector<int> all, inputs, outputs;
    for (int rank = 0; rank < ranks; ++rank) {
        all.push_back(rank);
        inputs.push_back(builder.add_input(rank, block));
        outputs.push_back(builder.add_output(rank, block * ranks));
    }
    // Every rank's own block first; from then on its output holds what it has.
    ChunkState state{0, block * ranks, "c0", {}, {}};
    for (int rank = 0; rank < ranks; ++rank) {
        state.partial.push_back({block == 0 ? -1 : outputs[rank], 0, block * ranks});
        state.ready.emplace_back();
        if (block > 0)
            state.ready.back().push_back(
                builder.copy(rank, {inputs[rank], 0, block}, blocks_range(outputs[rank], rank, 1, block), {}, "own"));
    }
    TempPool landings(builder), partials(builder);
    Pieces pieces(builder, all, state, outputs, {landings, partials, nullptr, true},
                  std::vector<std::uint64_t>(ranks, block));
    rounds(pieces, ranks);
    pieces.finish();
    settle(builder, state);
    return builder.finish();
}

void ring_rounds(Pieces& pieces, int ranks) {
    for (int step = 0; step + 1 < ranks; ++step) {
        std::vector<Pieces::Send> sends;
        for (int r = 0; r < ranks; ++r) sends.push_back({r, (r + 1) % ranks, (r - step + ranks) % ranks, 1});
        pieces.round(sends, false, 0, fmt::format("ring{}", step));
    }
}

}  // namespace numacoll::algo
