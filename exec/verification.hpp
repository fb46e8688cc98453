// Checking an execution against the collective's contract
// (schedule/collective_contract.hpp), from a reference computed straight from
// the inputs (exec/input_pattern.hpp), never from the schedule:
// - data: every output block of the given ranks holds what the last
//   iteration's inputs say it must, a reduction element by element, a copy
//   byte by byte; the first difference names the rank and the element;
// - synchronisation (a barrier, an all-to-all collective of nothing): in
//   every iteration, every thread arrived before any left.
// An engine that runs part of the ranks (one node of several) checks those.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "common/error.hpp"
#include "exec/buffers.hpp"
#include "exec/harness.hpp"
#include "schedule/schedule.hpp"

namespace numacoll::exec {

// A result that differs from the reference: names the rank and the element.
class VerificationError : public CheckError {
public:
    using CheckError::CheckError;
};

// Called with each checked rank's output before the check (tests corrupt
// one here to prove that the check notices).
using BeforeVerify = std::function<void(int rank, double* output, std::size_t count)>;

void verify_outputs(const sched::Schedule& schedule, const Buffers& buffers, const std::vector<int>& ranks,
                    std::uint32_t iteration, const BeforeVerify& before_verify = {});

// `ranks[t]` is the rank of the harness's thread t.
void verify_synchronisation(const sched::Schedule& schedule, const std::vector<int>& ranks,
                            const HarnessResult& harness);

}  // namespace numacoll::exec
