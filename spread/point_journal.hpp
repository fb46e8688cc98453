// spread::PointJournal: the finished points of a sweep, one line each, on
// disk as soon as each finishes, so that a sweep that stops (a failure, a
// signal, a killed process) keeps every point it finished and a later run
// computes only the others (--resume), and so that shards of one sweep can
// be joined (numacoll merge).
//
// The file is text. Its head says which sweep it belongs to; each later line
// is one point's result; a shard's last line says the shard is whole:
//   numacoll sweep points 1
//   sweep<TAB>SIGNATURE           the command and every option that shapes its points, escaped
//   version<TAB>VERSION           numacoll's version and revision
//   points<TAB>N<TAB>FINGERPRINT  how many points the sweep has, and a hash of what they are
//   shard<TAB>K/N                 (whole: 1/1)
//   command<TAB>WORD<TAB>WORD...  the command line that reruns the sweep, escaped words
//   <index><TAB><result>          one per finished point, in the order they finished
//   end<TAB>COUNT                 written once the shard's every point is in
// Results are escaped (\t, \n, \\), so any text survives. A torn last line
// (a process killed while writing it) is not a point: reading drops it.
//
// Invariant: a point appears at most once in a journal, with the result its
// computation gave; rows are flushed to the kernel before record() returns.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace numacoll::spread {

// The name of the journal inside an output folder (its staging folder while
// a run writes, or a shard's folder).
inline constexpr const char* journal_name = "sweep-points.tsv";

struct Shard {
    int index = 1;  // 1..count
    int count = 1;
    bool whole() const { return count == 1; }
};

// "K/N" with 1 <= K <= N <= 100000: UsageError otherwise.
Shard parse_shard(const std::string& text);

struct JournalHead {
    std::string signature;        // what makes two runs the same sweep
    std::string version;          // numacoll's version and revision
    std::size_t points = 0;       // every point of the sweep (all shards)
    std::uint64_t fingerprint = 0;  // of the points' keys, in order
    Shard shard;
    std::vector<std::string> command;  // the words after "numacoll"
};

// A 64-bit FNV-1a hash of the keys, each ended by a newline.
std::uint64_t fingerprint_of(const std::vector<std::string>& keys);

class PointJournal {
public:
    // Creates (or truncates) `path` and writes its head: UsageError when it
    // cannot be written.
    PointJournal(std::string path, const JournalHead& head);
    ~PointJournal();
    PointJournal(const PointJournal&) = delete;
    PointJournal& operator=(const PointJournal&) = delete;

    // Appends one point's line; Error when the write fails.
    void record(std::size_t point, const std::string& result);
    // The shard's every point is in: the end line.
    void finish(std::size_t count);
    const std::string& path() const { return path_; }

private:
    std::string path_;
    int fd_ = -1;
};

// What a journal holds.
struct JournalContents {
    JournalHead head;
    std::map<std::size_t, std::string> results;  // point -> result
    bool ended = false;                          // the end line was there and counted the points
};

// Reads a journal: InputError naming `path` when it is not one (a file of
// another kind, a damaged head, a point out of range or given twice).
JournalContents read_journal(const std::string& path);

// Whether two heads belong to the same sweep (the shard apart); else what
// differs, for a message ("the options differ", "numacoll's version differs").
std::string difference(const JournalHead& a, const JournalHead& b);

}  // namespace numacoll::spread
