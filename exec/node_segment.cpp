#include "exec/node_segment.hpp"

#include <fmt/format.h>

#include <cstdint>
#include <exception>

#include "common/error.hpp"

namespace numacoll::exec {

NodeSegment::NodeSegment(MPI_Comm node_comm, std::size_t bytes) {
    // A page more than asked: the library need not start a portion on a page
    // (Open MPI 4.1 does not), and this process's starts at the first one inside.
    const std::size_t rounded =
        (bytes + segment_page_bytes - 1) / segment_page_bytes * segment_page_bytes + segment_page_bytes;
    MPI_Info info;
    MPI_Info_create(&info);
    // Each portion on pages of its own (its owner places it), not packed after the previous one.
    MPI_Info_set(info, "alloc_shared_noncontig", "true");
    void* base = nullptr;
    const int code = MPI_Win_allocate_shared(static_cast<MPI_Aint>(rounded), 1, info, node_comm, &base, &window_);
    MPI_Info_free(&info);
    if (code != MPI_SUCCESS)
        throw Error(fmt::format("MPI could not make a segment of {} bytes shared by this node's processes", rounded));
    int members = 0;
    MPI_Comm_size(node_comm, &members);
    for (int member = 0; member < members; ++member) {
        MPI_Aint size = 0;
        int unit = 0;
        void* at = nullptr;
        MPI_Win_shared_query(window_, member, &size, &unit, &at);
        const auto address = reinterpret_cast<std::uintptr_t>(at);
        const std::uintptr_t page = (address + segment_page_bytes - 1) / segment_page_bytes * segment_page_bytes;
        bases_.push_back(static_cast<std::byte*>(at) + (page - address));
    }
}

NodeSegment::~NodeSegment() {
    if (window_ != MPI_WIN_NULL && std::uncaught_exceptions() == 0) MPI_Win_free(&window_);
}

}  // namespace numacoll::exec
