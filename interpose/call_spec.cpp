#include "interpose/call_spec.hpp"

#include "exec/mpi_datatypes.hpp"

namespace numacoll::interpose {

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
    int size = 0;
    MPI_Aint lb = 0, extent = 0, true_lb = 0, true_extent = 0;
    if (PMPI_Type_size(datatype, &size) != MPI_SUCCESS || PMPI_Type_get_extent(datatype, &lb, &extent) != MPI_SUCCESS ||
        PMPI_Type_get_true_extent(datatype, &true_lb, &true_extent) != MPI_SUCCESS)
        return {};
    const bool contiguous = size > 0 && lb == 0 && true_lb == 0 && extent == size && true_extent == size;
    return {contiguous, static_cast<std::uint64_t>(size)};
}

std::string unserved_reduction(MPI_Datatype datatype, MPI_Op op) {
    const auto type = exec::datatype_of(datatype);
    if (!type) return "derived datatype";
    const auto operation = exec::op_of(op);
    if (!operation) return "user-defined operation";
    if (!sched::applies(*operation, *type)) return "operation undefined on datatype";
    const Elements elements = elements_of(datatype);
    if (!elements.contiguous || elements.bytes != sched::element_size(*type)) return "padded datatype";
    return {};
}

CallKey reduction_key(sched::Collective collective, int count, MPI_Datatype datatype, MPI_Op op, int root) {
    CallKey key;
    key.collective = collective;
    key.datatype = *exec::datatype_of(datatype);
    key.op = *exec::op_of(op);
    key.bytes = static_cast<std::uint64_t>(count) * sched::element_size(key.datatype);
    key.root = root;
    return key;
}

}  // namespace numacoll::interpose
