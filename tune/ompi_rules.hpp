// Open MPI coll/tuned dynamic rules from a sweep: the fastest algorithm that
// Open MPI has, per collective, communicator size and message size, in the
// files Open MPI reads (coll_tuned_use_dynamic_rules 1,
// coll_tuned_dynamic_rules_filename FILE).
//
// - Classic format (coll_tuned_dynamic_file.c): the number of collectives;
//   per collective its id (Open MPI's COLLTYPE_T: allgather 0, allreduce 2,
//   barrier 6, bcast 7, gather 9, reduce 11, scatter 15), the number of
//   communicator sizes; per size the smallest communicator it applies to
//   (Open MPI 4.1 picks the largest listed size not above the
//   communicator's), the number of message rules; per rule the smallest
//   message size, the algorithm's number, the fan-in/out and the segment
//   size. The first rule of each size starts at 0. `# ...` comments are
//   skipped by the reader. Open MPI 5 reads an optional first line
//   `rule-file-version-2`; Open MPI 4.1 does not know it and then ignores
//   the whole file, so both forms are written.
// - JSON format (Open MPI's JSON rules reader): {"collectives": {"bcast":
//   [{"comm_size_min", "comm_size_max", "comm_rank_distribution", "rules":
//   [{"msg_size_min", "msg_size_max", "alg", "faninout", "seg_size"}]}]}},
//   with the algorithm by its MCA name; rules for one node are marked
//   "single-node" and rules for one rank per node "one-per-node", so that
//   one file carries the intra-node and inter-node choices.
//
// Message sizes are Open MPI's: the datatype size times the count for
// allreduce, bcast and reduce (numacoll's bytes per rank); times the count
// times the communicator size for gather, scatter and allgather (numacoll's
// bytes are one rank's block); 0 for barrier.
//
// Invariants: only candidates with an Open MPI counterpart
// (exec/ompi_tuned.hpp) whose options Open MPI can express (segment,
// fanout, Open MPI's own rank order) are chosen; consecutive sizes with the
// same choice are one rule.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "tune/selection_table.hpp"

namespace numacoll::tune {

// Open MPI's message size for numacoll's `bytes` on `ranks` ranks.
std::uint64_t ompi_message_bytes(sched::Collective collective, std::uint64_t bytes, int ranks);

// Open MPI's COLLTYPE_T number of a collective.
int ompi_collective_id(sched::Collective collective);

struct OmpiChoice {
    std::uint64_t message_bytes = 0;  // from this Open MPI message size on
    std::uint64_t numacoll_bytes = 0;  // the swept size it was chosen at
    std::string algorithm;             // numacoll's name
    std::string mca_name;              // Open MPI's
    int id = 0;
    int faninout = 0;
    std::uint64_t segment_bytes = 0;
    double time_ns = 0;
    bool operator==(const OmpiChoice& other) const {
        return id == other.id && faninout == other.faninout && segment_bytes == other.segment_bytes;
    }
};

struct OmpiCommRule {
    sched::Collective collective = sched::Collective::allreduce;
    int ranks = 0;
    int nodes = 1;
    int ranks_per_node = 1;
    std::vector<OmpiChoice> choices;  // ascending message sizes, the first at 0
};

// The fastest Open MPI-expressible candidate of every point, merged into
// rules; a shape where no candidate is expressible has no rule.
std::vector<OmpiCommRule> ompi_rules(const std::vector<TunePoint>& points);

// Why each collective of the sweep that got no rule got none, one line per
// collective in the sweep's order ("allreduce: ..."): Open MPI has no such
// collective, no candidate timed is one of its algorithms, none of them in
// a form it can run, or none of them could be timed.
std::vector<std::string> collectives_without_rules(const std::vector<TunePoint>& points,
                                                   const std::vector<OmpiCommRule>& rules);

// Whether Open MPI can run this candidate as numacoll simulates it.
bool ompi_expressible(sched::Collective collective, const Candidate& candidate);

// `version_line`: start with `rule-file-version-2` (Open MPI 5 and later).
// Where several shapes have one communicator size, the classic format
// (which knows only the size) takes the one over the most nodes.
// `comments` go on top, one per line, after `# `.
std::string ompi_classic_rules(const std::vector<OmpiCommRule>& rules, bool version_line,
                               const std::vector<std::string>& comments);
std::string ompi_json_rules(const std::vector<OmpiCommRule>& rules, const std::map<std::string, std::string>& about);

}  // namespace numacoll::tune
