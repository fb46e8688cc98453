#include "schedule/collective_contract.hpp"

#include <numeric>
#include <string>

namespace numacoll::sched {

int pingpong_peer(const CollectiveSpec& spec) {
    const auto found = spec.options.find("peer");
    if (found == spec.options.end()) return 1;
    try {
        return std::stoi(found->second);
    } catch (const std::exception&) {
        return -1;
    }
}

bool has_input(const CollectiveSpec& spec, int rank) {
    switch (spec.collective) {
        case Collective::allreduce:
        case Collective::reduce:
        case Collective::gather:
        case Collective::allgather:
        case Collective::reduce_scatter:
        case Collective::alltoall: return true;
        case Collective::bcast:
        case Collective::scatter: return rank == spec.root;
        case Collective::barrier: return false;
        case Collective::pingpong: return rank == spec.root || rank == pingpong_peer(spec);
    }
    return false;
}

bool has_output(const CollectiveSpec& spec, int rank) {
    switch (spec.collective) {
        case Collective::allreduce:
        case Collective::scatter:
        case Collective::allgather:
        case Collective::reduce_scatter:
        case Collective::alltoall: return true;
        case Collective::reduce:
        case Collective::gather: return rank == spec.root;
        case Collective::bcast: return rank != spec.root;
        case Collective::barrier: return false;
        case Collective::pingpong: return rank == spec.root || rank == pingpong_peer(spec);
    }
    return false;
}

std::uint64_t contract_input_bytes(const CollectiveSpec& spec, int ranks, int rank) {
    if (!has_input(spec, rank)) return 0;
    const bool blocks = spec.collective == Collective::scatter || spec.collective == Collective::reduce_scatter ||
                        spec.collective == Collective::alltoall;
    return blocks ? spec.bytes * static_cast<std::uint64_t>(ranks) : spec.bytes;
}

std::uint64_t contract_output_bytes(const CollectiveSpec& spec, int ranks, int rank) {
    if (!has_output(spec, rank)) return 0;
    const bool gathers = spec.collective == Collective::gather || spec.collective == Collective::allgather ||
                         spec.collective == Collective::alltoall;
    return gathers ? spec.bytes * static_cast<std::uint64_t>(ranks) : spec.bytes;
}

bool synchronisation_only(const CollectiveSpec& spec) {
    const bool all_to_all = spec.collective == Collective::allreduce || spec.collective == Collective::allgather;
    return spec.collective == Collective::barrier || (all_to_all && spec.bytes == 0);
}

std::vector<RequiredBlock> required_blocks(const CollectiveSpec& spec, int ranks) {
    std::vector<RequiredBlock> blocks;
    if (spec.bytes == 0) return blocks;
    std::vector<int> everyone(static_cast<std::size_t>(ranks));
    std::iota(everyone.begin(), everyone.end(), 0);
    const std::uint64_t m = spec.bytes;
    for (int rank = 0; rank < ranks; ++rank) {
        if (!has_output(spec, rank)) continue;
        switch (spec.collective) {
            case Collective::allreduce:
            case Collective::reduce: blocks.push_back({rank, 0, m, everyone, 0}); break;
            case Collective::bcast: blocks.push_back({rank, 0, m, {spec.root}, 0}); break;
            case Collective::scatter:
                blocks.push_back({rank, 0, m, {spec.root}, m * static_cast<std::uint64_t>(rank)});
                break;
            case Collective::reduce_scatter:
                blocks.push_back({rank, 0, m, everyone, m * static_cast<std::uint64_t>(rank)});
                break;
            case Collective::gather:
            case Collective::allgather:
                for (int source = 0; source < ranks; ++source)
                    blocks.push_back({rank, m * static_cast<std::uint64_t>(source), m, {source}, 0});
                break;
            case Collective::alltoall:
                for (int source = 0; source < ranks; ++source)
                    blocks.push_back({rank, m * static_cast<std::uint64_t>(source), m, {source},
                                      m * static_cast<std::uint64_t>(rank)});
                break;
            case Collective::pingpong:  // the root gets the peer's bytes back, the peer the root's
                blocks.push_back({rank, 0, m, {rank == spec.root ? pingpong_peer(spec) : spec.root}, 0});
                break;
            case Collective::barrier: break;
        }
    }
    return blocks;
}

}  // namespace numacoll::sched
