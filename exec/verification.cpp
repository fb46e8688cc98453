#include "exec/verification.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <vector>

#include "exec/input_pattern.hpp"
#include "schedule/collective_contract.hpp"

namespace numacoll::exec {

void verify_outputs(const sched::Schedule& schedule, const Buffers& buffers, const std::vector<int>& ranks,
                    std::uint32_t iteration, const BeforeVerify& before_verify) {
    const sched::CollectiveSpec& spec = schedule.spec;
    const std::set<int> checked(ranks.begin(), ranks.end());
    for (int rank : ranks) {
        const int output = schedule.output_of(rank);
        if (output >= 0 && before_verify)
            before_verify(rank, reinterpret_cast<double*>(buffers.bytes(output)),
                          schedule.buffer(output).bytes / sizeof(double));
    }
    const std::string what = fmt::format("({} {}, {} bytes of {})", sched::to_string(spec.collective), spec.algorithm,
                                         spec.bytes, sched::to_string(spec.datatype));
    for (const sched::RequiredBlock& block : sched::required_blocks(spec, schedule.rank_count())) {
        if (!checked.count(block.rank)) continue;
        const int output = schedule.output_of(block.rank);
        if (output < 0 || schedule.buffer(output).bytes < block.output_offset + block.bytes)
            throw VerificationError(fmt::format("verification failed: rank {} has no output of {} bytes {}", block.rank,
                                                block.output_offset + block.bytes, what));
        const std::byte* bytes = buffers.bytes(output) + block.output_offset;
        if (block.sources.size() > 1) {
            // Element by element against the reference, a run of them at a time.
            const std::size_t size = sched::element_size(spec.datatype);
            constexpr std::size_t run_elements = 4096;
            std::vector<std::byte> expected(run_elements * size);
            const std::size_t elements = block.bytes / size;
            for (std::size_t first = 0; first < elements; first += run_elements) {
                const std::size_t count = std::min(run_elements, elements - first);
                reduced_elements(expected.data(), schedule.rank_count(), block.input_offset / size + first, count,
                                 iteration, spec.datatype, spec.op);
                for (std::size_t i = 0; i < count; ++i) {
                    const std::byte* got = bytes + (first + i) * size;
                    if (same_value(got, expected.data() + i * size, spec.datatype)) continue;
                    throw VerificationError(fmt::format(
                        "verification failed: rank {} element {} is {} but the {} of the inputs is {} {}", block.rank,
                        block.output_offset / size + first + i, element_text(got, spec.datatype),
                        sched::to_string(spec.op), element_text(expected.data() + i * size, spec.datatype), what));
                }
            }
            continue;
        }
        for (std::size_t x = 0; x < block.bytes; ++x) {
            const std::uint8_t expected =
                input_byte(block.sources.front(), block.input_offset + x, iteration, spec.datatype, spec.op);
            const auto got = static_cast<std::uint8_t>(bytes[x]);
            if (got != expected)
                throw VerificationError(fmt::format(
                    "verification failed: rank {} byte {} is {:#04x} but rank {}'s input byte {} is {:#04x} {}",
                    block.rank, block.output_offset + x, got, block.sources.front(), block.input_offset + x, expected,
                    what));
        }
    }
}

void verify_synchronisation(const sched::Schedule& schedule, const std::vector<int>& ranks,
                            const HarnessResult& harness) {
    for (std::size_t it = 0; it < harness.arrivals.size(); ++it) {
        const auto& arrived = harness.arrivals[it];
        const auto& left = harness.departures[it];
        const auto last_arrival = std::max_element(arrived.begin(), arrived.end());
        const auto first_departure = std::min_element(left.begin(), left.end());
        if (*first_departure < *last_arrival)
            throw VerificationError(fmt::format(
                "verification failed: in iteration {} rank {} left the barrier before rank {} arrived ({} {})", it + 1,
                ranks[first_departure - left.begin()], ranks[last_arrival - arrived.begin()],
                sched::to_string(schedule.spec.collective), schedule.spec.algorithm));
    }
}

}  // namespace numacoll::exec
