#include "interpose/call_spec.hpp"

#include <mutex>
#include <vector>

#include "exec/mpi_datatypes.hpp"

namespace numacoll::interpose {

namespace {

// What a predefined datatype is, found once: numacoll's datatype, how its
// elements lie, and the operations MPI defines on it (a bit per ReduceOp).
struct PredefinedType {
    MPI_Datatype handle;
    sched::Datatype datatype;
    Elements elements;
    std::uint32_t operations = 0;
};

Elements elements_asked_of_mpi(MPI_Datatype datatype) {
    int size = 0;
    MPI_Aint lb = 0, extent = 0, true_lb = 0, true_extent = 0;
    if (PMPI_Type_size(datatype, &size) != MPI_SUCCESS || PMPI_Type_get_extent(datatype, &lb, &extent) != MPI_SUCCESS ||
        PMPI_Type_get_true_extent(datatype, &true_lb, &true_extent) != MPI_SUCCESS)
        return {};
    const bool contiguous = size > 0 && lb == 0 && true_lb == 0 && extent == size && true_extent == size;
    return {contiguous, static_cast<std::uint64_t>(size)};
}

// Made at the first call, after MPI_Init (Open MPI's handles are addresses
// it fills in then); an MPI that lacks one (MPI_DATATYPE_NULL) leaves it out.
const std::vector<PredefinedType>& predefined_types() {
    static std::once_flag once;
    static std::vector<PredefinedType> table;
    std::call_once(once, [] {
        for (const sched::Datatype datatype : sched::all_datatypes()) {
            const MPI_Datatype handle = exec::mpi_datatype(datatype);
            if (handle == MPI_DATATYPE_NULL) continue;
            PredefinedType type{handle, datatype, elements_asked_of_mpi(handle), 0};
            for (int op = 0; op <= static_cast<int>(sched::ReduceOp::maxloc); ++op)
                if (sched::applies(static_cast<sched::ReduceOp>(op), datatype)) type.operations |= 1u << op;
            table.push_back(type);
        }
    });
    return table;
}

// The predefined datatype a handle names, or null. The last one found is
// tried first: an application reduces mostly one datatype.
const PredefinedType* predefined(MPI_Datatype handle) {
    const std::vector<PredefinedType>& table = predefined_types();
    thread_local std::size_t last = 0;
    if (last < table.size() && table[last].handle == handle) return &table[last];
    for (std::size_t k = 0; k < table.size(); ++k)
        if (table[k].handle == handle) {
            last = k;
            return &table[k];
        }
    return nullptr;
}

}  // namespace

sched::CollectiveSpec spec_of(const CallKey& key, int schedule_root) {
    sched::CollectiveSpec spec;
    spec.collective = key.collective;
    spec.bytes = key.bytes;
    spec.datatype = key.datatype;
    spec.op = key.op;
    spec.root = schedule_root;
    return spec;
}

Elements elements_of(MPI_Datatype datatype) {
    if (const PredefinedType* type = predefined(datatype)) return type->elements;
    return elements_asked_of_mpi(datatype);
}

ReductionCall reduction_call_of(sched::Collective collective, int count, MPI_Datatype datatype, MPI_Op op, int root) {
    ReductionCall call;
    call.key.collective = collective;
    call.key.root = root;
    const PredefinedType* type = predefined(datatype);
    const std::optional<sched::ReduceOp> operation = exec::op_of(op);
    if (type == nullptr) {
        call.unserved = "derived datatype";
    } else if (!operation) {
        call.unserved = "user-defined operation";
    } else if ((type->operations & (1u << static_cast<int>(*operation))) == 0) {
        call.unserved = "operation undefined on datatype";
    } else if (!type->elements.contiguous || type->elements.bytes != sched::element_size(type->datatype)) {
        call.unserved = "padded datatype";
    } else if (count == 0) {
        call.unserved = "no data";
    }
    if (operation) call.key.op = *operation;
    if (type != nullptr) {
        call.key.datatype = type->datatype;
        call.key.bytes = static_cast<std::uint64_t>(count) * type->elements.bytes;
    } else if (int size = 0; PMPI_Type_size(datatype, &size) == MPI_SUCCESS && size > 0) {
        call.key.bytes = static_cast<std::uint64_t>(count) * static_cast<std::uint64_t>(size);  // for the report
    }
    return call;
}

}  // namespace numacoll::interpose
