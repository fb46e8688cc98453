// An MPI application for the interposition library's tests: it calls the
// seven collectives the library serves (and some it must hand back) the
// way applications do (every root, MPI_IN_PLACE, many calls in a row with
// new data each time, sub-communicators that are freed, derived datatypes,
// user-defined operations, an intercommunicator) and compares every result
// with what the MPI library's own collective (PMPI_*) gives for the same
// arguments. Run with the library preloaded, MPI_* is the library's and
// PMPI_* the MPI library's; the report then says which calls numacoll served.
//
// Inputs are small integers in every type, so that sums and products are
// exact in any order and results compare byte for byte. Exit 0 when every
// result agrees on every process, 1 otherwise (a line per difference).
#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

int failures = 0;
int world_rank = 0;

void expect_same(const void* got, const void* want, std::size_t bytes, const std::string& what) {
    if (std::memcmp(got, want, bytes) == 0) return;
    ++failures;
    const auto* g = static_cast<const unsigned char*>(got);
    const auto* w = static_cast<const unsigned char*>(want);
    std::size_t at = 0;
    while (g[at] == w[at]) ++at;
    std::fprintf(stderr, "process %d: %s: byte %zu differs (%u, the MPI library's %u)\n", world_rank, what.c_str(), at,
                 g[at], w[at]);
}

// Element k of rank r's input in round `round`: small, so every fold is exact.
template <typename T>
std::vector<T> input(int count, int rank, int round) {
    std::vector<T> values(static_cast<std::size_t>(count));
    for (int k = 0; k < count; ++k) values[k] = static_cast<T>((k * 7 + rank * 3 + round) % 5 + 1);
    return values;
}

template <typename T>
void allreduce_case(MPI_Comm comm, MPI_Datatype type, MPI_Op op, int count, int rounds, bool in_place,
                    const std::string& name, int values_per_element = 1) {
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    for (int round = 0; round < rounds; ++round) {
        std::vector<T> in = input<T>(count * values_per_element, rank, round), got(in.size()), want(in.size());
        if (in_place) {
            got = in;
            MPI_Allreduce(MPI_IN_PLACE, got.data(), count, type, op, comm);
        } else {
            MPI_Allreduce(in.data(), got.data(), count, type, op, comm);
        }
        PMPI_Allreduce(in.data(), want.data(), count, type, op, comm);
        expect_same(got.data(), want.data(), got.size() * sizeof(T),
                    "allreduce " + name + " count " + std::to_string(count) + (in_place ? " in place" : ""));
    }
}

template <typename T>
void reduce_case(MPI_Comm comm, MPI_Datatype type, MPI_Op op, int count, int root, bool in_place, int rounds,
                 const std::string& name) {
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    for (int round = 0; round < rounds; ++round) {
        std::vector<T> in = input<T>(count, rank, round), got(in.size(), T{}), want(in.size(), T{});
        if (in_place && rank == root) {
            got = in;
            MPI_Reduce(MPI_IN_PLACE, got.data(), count, type, op, root, comm);
        } else {
            MPI_Reduce(in.data(), got.data(), count, type, op, root, comm);
        }
        PMPI_Reduce(in.data(), want.data(), count, type, op, root, comm);
        if (rank == root)
            expect_same(got.data(), want.data(), got.size() * sizeof(T),
                        "reduce " + name + " root " + std::to_string(root) + (in_place ? " in place" : ""));
    }
}

void bcast_case(MPI_Comm comm, int bytes, int root, int rounds) {
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    for (int round = 0; round < rounds; ++round) {
        // Every round new bytes at the root: a root that ran ahead and
        // wrote over what another process still reads would show here.
        std::vector<unsigned char> got(static_cast<std::size_t>(bytes), 0), want(got.size(), 0);
        if (rank == root)
            for (int k = 0; k < bytes; ++k) got[k] = want[k] = static_cast<unsigned char>(k * 13 + round);
        MPI_Bcast(got.data(), bytes, MPI_BYTE, root, comm);
        PMPI_Bcast(want.data(), bytes, MPI_BYTE, root, comm);
        expect_same(got.data(), want.data(), got.size(),
                    "bcast " + std::to_string(bytes) + " B root " + std::to_string(root) + " round " + std::to_string(round));
    }
}

void gathers_case(MPI_Comm comm, int count, int root, bool in_place) {
    int rank = 0, size = 0;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    const std::string tag = " count " + std::to_string(count) + " root " + std::to_string(root) + (in_place ? " in place" : "");
    std::vector<int> mine = input<int>(count, rank, 1);
    std::vector<int> all(static_cast<std::size_t>(count) * size, -1), want(all.size(), -1);
    // gather
    if (in_place && rank == root) {
        std::copy(mine.begin(), mine.end(), all.begin() + static_cast<std::ptrdiff_t>(count) * rank);
        MPI_Gather(MPI_IN_PLACE, count, MPI_INT, all.data(), count, MPI_INT, root, comm);
    } else {
        MPI_Gather(mine.data(), count, MPI_INT, all.data(), count, MPI_INT, root, comm);
    }
    PMPI_Gather(mine.data(), count, MPI_INT, want.data(), count, MPI_INT, root, comm);
    if (rank == root) expect_same(all.data(), want.data(), all.size() * sizeof(int), "gather" + tag);
    // scatter: the root's blocks are everyone's inputs
    std::vector<int> source(static_cast<std::size_t>(count) * size);
    for (std::size_t k = 0; k < source.size(); ++k) source[k] = static_cast<int>(k % 1000) + root;
    std::vector<int> block(static_cast<std::size_t>(count), -1), want_block(block.size(), -1);
    if (in_place && rank == root)
        MPI_Scatter(source.data(), count, MPI_INT, MPI_IN_PLACE, count, MPI_INT, root, comm);
    else
        MPI_Scatter(source.data(), count, MPI_INT, block.data(), count, MPI_INT, root, comm);
    PMPI_Scatter(source.data(), count, MPI_INT, want_block.data(), count, MPI_INT, root, comm);
    if (!(in_place && rank == root))
        expect_same(block.data(), want_block.data(), block.size() * sizeof(int), "scatter" + tag);
    // allgather
    std::fill(all.begin(), all.end(), -1);
    std::fill(want.begin(), want.end(), -1);
    if (in_place) {
        std::copy(mine.begin(), mine.end(), all.begin() + static_cast<std::ptrdiff_t>(count) * rank);
        MPI_Allgather(MPI_IN_PLACE, count, MPI_INT, all.data(), count, MPI_INT, comm);
    } else {
        MPI_Allgather(mine.data(), count, MPI_INT, all.data(), count, MPI_INT, comm);
    }
    PMPI_Allgather(mine.data(), count, MPI_INT, want.data(), count, MPI_INT, comm);
    expect_same(all.data(), want.data(), all.size() * sizeof(int), "allgather" + tag);
}

// Debian's MPICH 4.0.2 crashes in MPI_Reduce(MPI_IN_PLACE, ...) at a root
// other than 0 with two processes on a host (pmodels/mpich#6540, fixed in
// MPICH 4.2). Where the MPI library may serve such a call itself, that case
// is left out: when the library was told to hand everything back
// (NUMACOLL_TEST_NATIVE=1), and when no reduction algorithm is forced (the
// models' choice is then tried against the MPI library's own, call by
// call). numacoll serves it right.
bool in_place_reduce_at_any_root() {
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int length = 0;
    MPI_Get_library_version(version, &length);
    const std::string text(version, static_cast<std::size_t>(length));
    const bool faulty = text.find("MPICH Version:\t4.0") != std::string::npos ||
                        text.find("MPICH Version:\t4.1") != std::string::npos;
    if (!faulty) return true;
    const char* native = std::getenv("NUMACOLL_TEST_NATIVE");
    if (native != nullptr && std::string(native) == "1") return false;
    const char* forced = std::getenv("NUMACOLL_MPI_ALGORITHM");
    const std::string list = "," + std::string(forced != nullptr ? forced : "") + ",";
    return list.find(",reduce:") != std::string::npos && list.find(",reduce:native,") == std::string::npos;
}

void sum_of_ints(void* in, void* inout, int* count, MPI_Datatype*) {
    for (int k = 0; k < *count; ++k) static_cast<int*>(inout)[k] += static_cast<int*>(in)[k];
}

void sum_of_pairs(void* in, void* inout, int* count, MPI_Datatype*) {
    for (int k = 0; k < 2 * *count; ++k) static_cast<int*>(inout)[k] += static_cast<int*>(in)[k];
}

// Everything on one communicator.
void every_collective(MPI_Comm comm) {
    int size = 0;
    MPI_Comm_size(comm, &size);
    for (int count : {1, 7, 1000, 70000}) {
        allreduce_case<double>(comm, MPI_DOUBLE, MPI_SUM, count, 3, false, "double sum");
        allreduce_case<double>(comm, MPI_DOUBLE, MPI_SUM, count, 3, true, "double sum");
        allreduce_case<int>(comm, MPI_INT, MPI_MAX, count, 2, false, "int max");
    }
    allreduce_case<double>(comm, MPI_DOUBLE, MPI_SUM, 1, 300, false, "double sum, many calls");
    allreduce_case<float>(comm, MPI_FLOAT, MPI_PROD, 33, 2, false, "float prod");
    allreduce_case<std::uint8_t>(comm, MPI_UINT8_T, MPI_BXOR, 100, 2, true, "uint8 bxor");
    allreduce_case<std::int64_t>(comm, MPI_INT64_T, MPI_MIN, 100, 2, false, "int64 min");
    allreduce_case<int>(comm, MPI_INT, MPI_LAND, 50, 2, false, "int land");
    allreduce_case<std::int32_t>(comm, MPI_2INT, MPI_MINLOC, 20, 2, false, "2int minloc", 2);  // value, index
    for (int root : {0, size - 1}) {
        reduce_case<double>(comm, MPI_DOUBLE, MPI_SUM, 1000, root, false, 3, "double sum");
        if (root == 0 || in_place_reduce_at_any_root())
            reduce_case<double>(comm, MPI_DOUBLE, MPI_SUM, 1000, root, true, 3, "double sum");
        reduce_case<int>(comm, MPI_INT, MPI_BOR, 5, root, false, 200, "int bor, many calls");
        for (int bytes : {1, 100, 65536, 1 << 20}) bcast_case(comm, bytes, root, 3);
        bcast_case(comm, 8, root, 300);
        for (int count : {1, 64, 2501})
            for (bool in_place : {false, true}) gathers_case(comm, count, root, in_place);
    }
    for (int round = 0; round < 100; ++round) MPI_Barrier(comm);
    // Handed back to the MPI library, and still right.
    MPI_Op user_sum;
    MPI_Op_create(sum_of_ints, 1, &user_sum);
    allreduce_case<int>(comm, MPI_INT, user_sum, 10, 2, false, "user-defined sum");
    MPI_Op_free(&user_sum);
    MPI_Datatype every_other;
    MPI_Type_vector(8, 1, 2, MPI_INT, &every_other);
    MPI_Type_commit(&every_other);
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    std::vector<int> strided(16, rank == 0 ? 5 : 0), want(16, rank == 0 ? 5 : 0);
    MPI_Bcast(strided.data(), 1, every_other, 0, comm);
    PMPI_Bcast(want.data(), 1, every_other, 0, comm);
    expect_same(strided.data(), want.data(), strided.size() * sizeof(int), "bcast of a vector datatype");
    MPI_Type_free(&every_other);
    // Ranks that describe the same bytes differently: the root scatters and
    // gathers through a vector datatype, the others send and receive doubles.
    {
        int size = 0;
        MPI_Comm_size(comm, &size);
        const int n = 5;
        MPI_Datatype strided;  // n doubles, every other one
        MPI_Type_vector(n, 1, 2, MPI_DOUBLE, &strided);
        MPI_Datatype block;  // one block per rank, back to back
        MPI_Type_create_resized(strided, 0, static_cast<MPI_Aint>(2 * n * sizeof(double)), &block);
        MPI_Type_commit(&block);
        std::vector<double> source(static_cast<std::size_t>(2 * n * size)), mine(n, -1.0), want_mine(n, -1.0);
        for (std::size_t k = 0; k < source.size(); ++k) source[k] = static_cast<double>(k);
        MPI_Scatter(source.data(), 1, block, mine.data(), n, MPI_DOUBLE, 0, comm);
        PMPI_Scatter(source.data(), 1, block, want_mine.data(), n, MPI_DOUBLE, 0, comm);
        expect_same(mine.data(), want_mine.data(), mine.size() * sizeof(double), "scatter from a vector datatype");
        std::vector<double> gathered(source.size(), -1.0), want_gathered(source.size(), -1.0);
        MPI_Gather(mine.data(), n, MPI_DOUBLE, gathered.data(), 1, block, 0, comm);
        PMPI_Gather(mine.data(), n, MPI_DOUBLE, want_gathered.data(), 1, block, 0, comm);
        if (rank == 0)
            expect_same(gathered.data(), want_gathered.data(), gathered.size() * sizeof(double),
                        "gather into a vector datatype");
        MPI_Type_free(&block);
        MPI_Type_free(&strided);
    }
    // A reduction of a derived datatype (by a user-defined operation: MPI's
    // own apply to predefined datatypes only) goes to the MPI library.
    {
        MPI_Datatype pair;
        MPI_Type_contiguous(2, MPI_INT, &pair);
        MPI_Type_commit(&pair);
        MPI_Op pair_sum;
        MPI_Op_create(sum_of_pairs, 1, &pair_sum);
        std::vector<int> in(8, 1 + rank), got(8), want(8);
        MPI_Allreduce(in.data(), got.data(), 4, pair, pair_sum, comm);
        PMPI_Allreduce(in.data(), want.data(), 4, pair, pair_sum, comm);
        expect_same(got.data(), want.data(), got.size() * sizeof(int), "allreduce of a derived datatype");
        MPI_Op_free(&pair_sum);
        MPI_Type_free(&pair);
    }
    // A contiguous derived datatype is served as bytes.
    MPI_Datatype triple;
    MPI_Type_contiguous(3, MPI_INT, &triple);
    MPI_Type_commit(&triple);
    std::vector<int> triples(30, rank == 0 ? 9 : 0), want_triples(30, rank == 0 ? 9 : 0);
    MPI_Bcast(triples.data(), 10, triple, 0, comm);
    PMPI_Bcast(want_triples.data(), 10, triple, 0, comm);
    expect_same(triples.data(), want_triples.data(), triples.size() * sizeof(int), "bcast of a contiguous datatype");
    MPI_Type_free(&triple);
}

}  // namespace

int main(int argc, char** argv) {
    int provided = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_SINGLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    int size = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    every_collective(MPI_COMM_WORLD);
    // Sub-communicators, freed afterwards: the even and odd ranks, and the
    // world in reverse order.
    MPI_Comm half, reversed;
    MPI_Comm_split(MPI_COMM_WORLD, world_rank % 2, world_rank, &half);
    every_collective(half);
    MPI_Comm_free(&half);
    MPI_Comm_split(MPI_COMM_WORLD, 0, size - world_rank, &reversed);
    every_collective(reversed);
    MPI_Comm_free(&reversed);
    // An intercommunicator between the halves: handed back.
    if (size >= 2) {
        MPI_Comm local, inter;
        MPI_Comm_split(MPI_COMM_WORLD, world_rank % 2, world_rank, &local);
        MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, world_rank % 2 == 0 ? 1 : 0, 7, &inter);
        MPI_Barrier(inter);
        MPI_Comm_free(&inter);
        MPI_Comm_free(&local);
    }
    int all_failures = 0;
    PMPI_Allreduce(&failures, &all_failures, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (world_rank == 0 && all_failures > 0) std::fprintf(stderr, "%d results differ\n", all_failures);
    MPI_Finalize();
    return all_failures == 0 ? 0 : 1;
}
