#include "models/bcast/scattered.hpp"

#include <algorithm>
#include <vector>

#include "models/flat_models.hpp"

namespace numacoll::models {

namespace {

struct Send {
    int from, to, first, count;
};

class RoundTrace {
public:
    RoundTrace(const P2pTerms& terms, std::vector<double> block_bytes)
        : terms_(terms), blocks_(std::move(block_bytes)), ready_(blocks_.size(), 0.0),
          held_(blocks_.size(), std::vector<bool>(blocks_.size(), false)) {
        held_[0].assign(blocks_.size(), true);
    }

    // Nothing is handed to a rank that holds it already (the root, an inner rank of the scatter).
    void round(std::vector<Send> sends) {
        std::erase_if(sends, [&](const Send& send) {
            for (int b = send.first; b < send.first + send.count; ++b)
                if (!held_[send.to][b]) return false;
            return true;
        });
        const int at_once = static_cast<int>(sends.size());
        std::vector<double> next = ready_;
        for (const Send& send : sends) {
            double bytes = 0;
            for (int b = send.first; b < send.first + send.count; ++b) bytes += blocks_[b];
            const double flagged = ready_[send.from] + terms_.signal_ns(at_once);
            next[send.to] = std::max(ready_[send.to], flagged) + terms_.copy_ns(bytes, at_once);
            for (int b = send.first; b < send.first + send.count; ++b) held_[send.to][b] = true;
        }
        ready_ = next;
    }
    double done() const { return *std::max_element(ready_.begin(), ready_.end()); }

private:
    const P2pTerms& terms_;
    std::vector<double> blocks_;
    std::vector<double> ready_;
    std::vector<std::vector<bool>> held_;  // [rank][block]
};

}  // namespace

std::optional<double> scattered_bcast_ns(const sched::CollectiveSpec& spec, const NodeShape& shape,
                                         const costs::Params& params, ScatteredAllgather allgather) {
    const int p = shape.ranks();
    const P2pTerms t = flat_terms(shape, params);
    if (p == 1) return 0.0;
    const std::uint64_t element = spec.bytes % sched::element_bytes(spec) == 0 ? sched::element_bytes(spec) : 1;
    const std::uint64_t elements = spec.bytes / element;
    if (elements < static_cast<std::uint64_t>(p)) return flat_bcast_ns("linear", p, 1, t, static_cast<double>(spec.bytes), 0);
    const std::uint64_t block = (elements + p - 1) / p;
    std::vector<double> block_bytes;
    for (int v = 0; v < p; ++v) {
        const std::uint64_t start = block * v;
        block_bytes.push_back(start >= elements ? 0.0 : static_cast<double>(std::min(block, elements - start) * element));
    }
    RoundTrace trace(t, block_bytes);
    int top = 1;
    while (2 * top < p) top *= 2;
    for (int mask = top; mask >= 1; mask /= 2) {
        std::vector<Send> sends;
        for (int v = 0; v + mask < p; v += 2 * mask)
            if (block_bytes[v + mask] > 0) sends.push_back({v, v + mask, v + mask, std::min(mask, p - v - mask)});
        trace.round(sends);
    }
    if (allgather == ScatteredAllgather::ring) {
        for (int step = 1; step < p; ++step) {
            std::vector<Send> sends;
            for (int v = 0; v < p; ++v) sends.push_back({v, (v + 1) % p, (v - step + 1 + p) % p, 1});
            trace.round(sends);
        }
        return trace.done();
    }
    for (int mask = 1; mask < p; mask <<= 1) {
        std::vector<Send> sends;
        for (int v = 0; v < p; ++v) {
            const int base = v & ~(mask - 1);
            if ((v ^ mask) < p) sends.push_back({v, v ^ mask, base, std::min(mask, p - base)});
        }
        trace.round(sends);
        for (int half = mask / 2; half >= 1; half /= 2) {
            std::vector<Send> fixes;
            for (int v = 0; v < p; ++v) {
                const int base = v & ~(mask - 1);
                if ((v & mask) != 0 || base + 2 * mask <= p) continue;
                const int have = p - base - mask, partner = v ^ half, tree = v & ~(2 * half - 1);
                if (partner > v && v < tree + have && partner >= tree + have)
                    fixes.push_back({v, partner, base + mask, p - base - mask});
            }
            if (!fixes.empty()) trace.round(fixes);
        }
    }
    return trace.done();
}

}  // namespace numacoll::models
