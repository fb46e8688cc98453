// The MPI functions the library defines in front of the MPI library's
// (through the profiling interface, PMPI_*): MPI_Init and MPI_Init_thread,
// to read the settings at once, and the seven collectives it serves. Each
// collective maps its arguments to a CallKey (interpose/call_spec.hpp),
// asks its communicator what serves it, and either points the schedule's
// input and output at the application's buffers or calls PMPI_* with the
// arguments unchanged. MPI_IN_PLACE is what the standard makes it for each
// collective: the input is the output (copied aside first when the
// schedule writes its output before it has read all of its input), the
// root's own block of a gather or allgather, or, for a scatter's root, no
// output at all.
#include <mpi.h>

#include <cstring>
#include <exception>
#include <vector>

#include <fmt/format.h>

#include "common/error.hpp"
#include "interpose/call_clock.hpp"
#include "interpose/call_spec.hpp"
#include "interpose/library.hpp"
#include "interpose/served_communicator.hpp"

#define NUMACOLL_EXPORT extern "C" __attribute__((visibility("default")))

namespace numacoll::interpose {
namespace {

struct Call {
    const char* name;
    MPI_Comm comm;
    CallKey key;
    const char* unserved = nullptr;  // why the MPI library serves it, known from the arguments alone
};

// Serves `call` with `serve(communicator, served)`, or the MPI library's
// `native()`, and logs its time in the communicator's row for it.
template <typename Native, typename Serve>
int intercept(const Call& call, Native&& native, Serve&& serve) {
    if (!library_active() || call.comm == MPI_COMM_NULL) return native();
    const std::uint64_t start = call_clock::ticks();
    ServedCommunicator* communicator = nullptr;
    ServedCommunicator::Service service;
    try {
        communicator = &served_communicator(call.comm);
        if (call.unserved == nullptr) {
            service = communicator->service(call.key);
            if (service.served != nullptr) {
                serve(*communicator, *service.served);
                const std::uint64_t ticks = call_clock::ticks() - start;
                communicator->log().record(*service.row, static_cast<double>(ticks));
                if (service.trial != nullptr) communicator->trial_call_done(*service.trial, ticks);
                return MPI_SUCCESS;
            }
        } else {
            service.row = &communicator->handed_back_row(call.key, call.unserved);
        }
    } catch (const std::exception& error) {
        abort_call(call.comm, call.name, error.what());
    }
    const int code = native();
    const std::uint64_t ticks = call_clock::ticks() - start;
    communicator->log().record(*service.row, static_cast<double>(ticks));
    if (service.trial != nullptr) {
        try {
            communicator->trial_call_done(*service.trial, ticks);
        } catch (const std::exception& error) {
            abort_call(call.comm, call.name, error.what());
        }
    }
    return code;
}

// A reduction's call: its key, or the reason it is handed back.
Call reduction_call(const char* name, sched::Collective collective, int count, MPI_Datatype datatype, MPI_Op op,
                    int root, MPI_Comm comm) {
    const ReductionCall reduction = reduction_call_of(collective, count, datatype, op, root);
    return {name, comm, reduction.key, reduction.unserved};
}

// A call that only copies: `count` elements of `datatype` per rank, as their
// bytes. Ranks may describe the same bytes with different datatypes (a
// vector at the root, doubles elsewhere): the bytes of each are the same
// everywhere, so every rank serves the call or none does; a rank whose
// datatype is not contiguous packs and unpacks its bytes (Staging).
Call copy_call(const char* name, sched::Collective collective, int count, MPI_Datatype datatype, int root,
               MPI_Comm comm) {
    Call call{name, comm, {}, nullptr};
    call.key.collective = collective;
    call.key.root = root;
    // Any datatype's size (a derived one's data only): what the others receive as bytes.
    call.key.bytes = count > 0 ? static_cast<std::uint64_t>(count) * elements_of(datatype).bytes : 0;
    if (call.key.bytes == 0) call.unserved = "no data";
    return call;
}

// This rank's bytes of a copy collective: where the application's buffer
// lies contiguous, the buffer itself; else packed into (or unpacked from) a
// scratch area of the communicator's, with MPI_Pack and MPI_Unpack.
class Staging {
public:
    Staging(ServedCommunicator& communicator, MPI_Comm comm) : communicator_(communicator), comm_(comm) {}

    // `count` elements of `datatype` at `buffer`, as contiguous bytes to read.
    const void* input(const void* buffer, int count, MPI_Datatype datatype) {
        if (elements_of(datatype).contiguous) return buffer;
        std::byte* area = take(packed_bytes(count, datatype));
        int position = 0;
        check(PMPI_Pack(buffer, count, datatype, area, static_cast<int>(packed_bytes(count, datatype)), &position, comm_),
              "MPI_Pack");
        return area;
    }
    // Where the served schedule writes bytes that end up as `count` elements
    // of `datatype` at `buffer` (finish() unpacks them there).
    void* output(void* buffer, int count, MPI_Datatype datatype) {
        if (elements_of(datatype).contiguous) return buffer;
        std::byte* area = take(packed_bytes(count, datatype));
        pending_.push_back({area, buffer, count, datatype});
        return area;
    }
    // Block `index` of `count` elements of `datatype` each at `buffer` (a
    // root's or rank's own block with MPI_IN_PLACE), packed into an area of
    // its own: the schedule writes the output the block lies in.
    const void* block(const void* buffer, int index, int count, MPI_Datatype datatype) {
        MPI_Aint lb = 0, extent = 0;
        check(PMPI_Type_get_extent(datatype, &lb, &extent), "MPI_Type_get_extent");
        const auto* at = static_cast<const std::byte*>(buffer) + static_cast<MPI_Aint>(index) * count * extent;
        const std::uint64_t bytes = packed_bytes(count, datatype);
        std::byte* area = take(bytes);
        int position = 0;
        check(PMPI_Pack(at, count, datatype, area, static_cast<int>(bytes), &position, comm_), "MPI_Pack");
        return area;
    }
    // Bytes nobody reads back (a scatter root's own block with MPI_IN_PLACE).
    void* discard(std::uint64_t bytes) { return take(bytes); }
    void finish() {
        for (const Pending& out : pending_) {
            int position = 0;
            check(PMPI_Unpack(out.area, static_cast<int>(packed_bytes(out.count, out.datatype)), &position, out.buffer,
                              out.count, out.datatype, comm_),
                  "MPI_Unpack");
        }
    }

private:
    struct Pending {
        std::byte* area;
        void* buffer;
        int count;
        MPI_Datatype datatype;
    };
    static void check(int code, const char* what) {
        if (code != MPI_SUCCESS) throw Error(fmt::format("{} failed (MPI error {})", what, code));
    }
    // The packed bytes are the elements' own (homogeneous processes): what
    // the other ranks send or receive as contiguous bytes.
    std::uint64_t packed_bytes(int count, MPI_Datatype datatype) const {
        int size = 0, packed = 0;
        check(PMPI_Type_size(datatype, &size), "MPI_Type_size");
        check(PMPI_Pack_size(count, datatype, comm_, &packed), "MPI_Pack_size");
        const std::uint64_t bytes = static_cast<std::uint64_t>(count) * static_cast<std::uint64_t>(size);
        if (static_cast<std::uint64_t>(packed) != bytes)
            throw Error(fmt::format("this MPI packs {} bytes of data into {}: a packed form numacoll cannot exchange",
                                    bytes, packed));
        return bytes;
    }
    std::byte* take(std::uint64_t bytes) { return communicator_.scratch(areas_++, bytes); }

    ServedCommunicator& communicator_;
    MPI_Comm comm_;
    int areas_ = 0;
    std::vector<Pending> pending_;
};

// The input of a rank whose input is its output (MPI_IN_PLACE): `at`, or a
// copy of it when the schedule writes the output before it is done reading.
const void* in_place_input(ServedCommunicator& communicator, const ServedCollective& served, const void* at,
                           std::uint64_t bytes) {
    if (served.input_may_be_output()) return at;
    std::byte* copy = communicator.scratch(0, bytes);
    std::memcpy(copy, at, bytes);
    return copy;
}

}  // namespace
}  // namespace numacoll::interpose

using namespace numacoll::interpose;
using numacoll::sched::Collective;

NUMACOLL_EXPORT int MPI_Init(int* argc, char*** argv) {
    const int code = PMPI_Init(argc, argv);
    if (code == MPI_SUCCESS) initialise_library();
    return code;
}

NUMACOLL_EXPORT int MPI_Init_thread(int* argc, char*** argv, int required, int* provided) {
    const int code = PMPI_Init_thread(argc, argv, required, provided);
    if (code == MPI_SUCCESS) initialise_library();
    return code;
}

NUMACOLL_EXPORT int MPI_Allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                                  MPI_Comm comm) {
    return intercept(
        reduction_call("MPI_Allreduce", Collective::allreduce, count, datatype, op, 0, comm),
        [&] { return PMPI_Allreduce(sendbuf, recvbuf, count, datatype, op, comm); },
        [&](ServedCommunicator& communicator, ServedCollective& served) {
            const void* input = sendbuf == MPI_IN_PLACE
                                    ? in_place_input(communicator, served, recvbuf, served.schedule().spec.bytes)
                                    : sendbuf;
            served.serve(input, recvbuf);
        });
}

NUMACOLL_EXPORT int MPI_Reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                               int root, MPI_Comm comm) {
    return intercept(
        reduction_call("MPI_Reduce", Collective::reduce, count, datatype, op, root, comm),
        [&] { return PMPI_Reduce(sendbuf, recvbuf, count, datatype, op, root, comm); },
        [&](ServedCommunicator& communicator, ServedCollective& served) {
            if (communicator.rank() != root) return served.serve(sendbuf, nullptr);
            const void* input = sendbuf == MPI_IN_PLACE
                                    ? in_place_input(communicator, served, recvbuf, served.schedule().spec.bytes)
                                    : sendbuf;
            served.serve(input, recvbuf);
        });
}

NUMACOLL_EXPORT int MPI_Bcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm) {
    return intercept(
        copy_call("MPI_Bcast", Collective::bcast, count, datatype, root, comm),
        [&] { return PMPI_Bcast(buffer, count, datatype, root, comm); },
        [&](ServedCommunicator& communicator, ServedCollective& served) {
            Staging staging(communicator, comm);
            if (communicator.rank() == root) {
                served.serve(staging.input(buffer, count, datatype), nullptr);
            } else {
                served.serve(nullptr, staging.output(buffer, count, datatype));
                staging.finish();
            }
        });
}

NUMACOLL_EXPORT int MPI_Barrier(MPI_Comm comm) {
    Call call{"MPI_Barrier", comm, {}, nullptr};
    call.key.collective = Collective::barrier;
    return intercept(
        call, [&] { return PMPI_Barrier(comm); },
        [&](ServedCommunicator&, ServedCollective& served) { served.serve(nullptr, nullptr); });
}

NUMACOLL_EXPORT int MPI_Gather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                               int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
    // The block each rank gives: the root with MPI_IN_PLACE names it by its receive.
    const bool root_in_place = sendbuf == MPI_IN_PLACE;
    const Call call = root_in_place ? copy_call("MPI_Gather", Collective::gather, recvcount, recvtype, root, comm)
                                    : copy_call("MPI_Gather", Collective::gather, sendcount, sendtype, root, comm);
    return intercept(
        call, [&] { return PMPI_Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm); },
        [&](ServedCommunicator& communicator, ServedCollective& served) {
            Staging staging(communicator, comm);
            if (communicator.rank() != root) return served.serve(staging.input(sendbuf, sendcount, sendtype), nullptr);
            int size = 0;
            PMPI_Comm_size(comm, &size);
            void* output = staging.output(recvbuf, recvcount * size, recvtype);
            const void* input = root_in_place ? staging.block(recvbuf, root, recvcount, recvtype)
                                              : staging.input(sendbuf, sendcount, sendtype);
            served.serve(input, output);
            staging.finish();
        });
}

NUMACOLL_EXPORT int MPI_Scatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
    const bool root_in_place = recvbuf == MPI_IN_PLACE;
    const Call call = root_in_place ? copy_call("MPI_Scatter", Collective::scatter, sendcount, sendtype, root, comm)
                                    : copy_call("MPI_Scatter", Collective::scatter, recvcount, recvtype, root, comm);
    return intercept(
        call, [&] { return PMPI_Scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm); },
        [&](ServedCommunicator& communicator, ServedCollective& served) {
            Staging staging(communicator, comm);
            if (communicator.rank() != root) {
                served.serve(nullptr, staging.output(recvbuf, recvcount, recvtype));
                return staging.finish();
            }
            int size = 0;
            PMPI_Comm_size(comm, &size);
            const void* input = staging.input(sendbuf, sendcount * size, sendtype);
            // The root's own block stays where it is with MPI_IN_PLACE.
            void* output = root_in_place ? staging.discard(served.schedule().spec.bytes)
                                         : staging.output(recvbuf, recvcount, recvtype);
            served.serve(input, output);
            staging.finish();
        });
}

NUMACOLL_EXPORT int MPI_Allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
    const bool in_place = sendbuf == MPI_IN_PLACE;
    const Call call = in_place ? copy_call("MPI_Allgather", Collective::allgather, recvcount, recvtype, 0, comm)
                               : copy_call("MPI_Allgather", Collective::allgather, sendcount, sendtype, 0, comm);
    return intercept(
        call, [&] { return PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm); },
        [&](ServedCommunicator& communicator, ServedCollective& served) {
            Staging staging(communicator, comm);
            int size = 0;
            PMPI_Comm_size(comm, &size);
            void* output = staging.output(recvbuf, recvcount * size, recvtype);
            const void* input = in_place ? staging.block(recvbuf, communicator.rank(), recvcount, recvtype)
                                         : staging.input(sendbuf, sendcount, sendtype);
            served.serve(input, output);
            staging.finish();
        });
}
