// exec::NodeSegment: the memory that the MPI processes of one node map
// together (MPI_Win_allocate_shared over the node's communicator), one
// portion per process, each starting on a page of its own (the first page
// boundary inside what the library gave it) so that its owner can place it
// on its NUMA node and flags keep their cache-line alignment. Every
// process sees every portion, at addresses of its own.
//
// Freeing is collective: the destructor frees the window only on the normal
// path; while an exception propagates (one process failing alone, whose job
// is about to be aborted) it leaves the window to MPI_Finalize or the
// abort, so that no process waits in a free the others never make.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <vector>

namespace numacoll::exec {

inline constexpr std::size_t segment_page_bytes = 4096;

class NodeSegment {
public:
    // Collective over `node_comm`: this process contributes at least `bytes`
    // from a page boundary; the memory is not touched here. Error when the MPI
    // library cannot make the window (not every process on one host).
    NodeSegment(MPI_Comm node_comm, std::size_t bytes);
    ~NodeSegment();
    NodeSegment(const NodeSegment&) = delete;
    NodeSegment& operator=(const NodeSegment&) = delete;

    // Member `member`'s portion (its rank in the node's communicator), as this process maps it.
    std::byte* portion(int member) const { return bases_[static_cast<std::size_t>(member)]; }

private:
    MPI_Win window_ = MPI_WIN_NULL;
    std::vector<std::byte*> bases_;
};

}  // namespace numacoll::exec
