// Writing output files so that nothing but the output is ever touched, and
// no reader ever sees half of one.
//
// Where the bytes go depends on what the path names, not on its spelling:
// - "-", /dev/stdout, /dev/stderr, /dev/fd/N and /proc/self/fd/N: the
//   process's own descriptor (standard output for "-"), written in place;
// - a symlink is followed to its final target, which is treated as below
//   (the link itself stays a link);
// - anything that exists and is not a regular file (a device such as
//   /dev/null or /dev/full, a FIFO) is written through: opened and written
//   in place, never replaced;
// - a regular file, or a path where nothing exists yet, gets a temporary
//   file beside it (PATH.tmpPID), renamed over it by commit(). A replaced
//   file keeps its mode (and its owner, where this process may set it).
// Until commit() a regular target is untouched; an OutputFile destroyed
// without commit() removes its temporary.
//
// Interruption (SIGINT, SIGTERM, SIGHUP, once install_interrupt_cleanup()
// has run): a file whose writer marked some of its text complete
// (mark_complete(): finished rows) is cut back to that text and renamed
// into place, so that a sweep interrupted after some points keeps exactly
// the rows it finished; every other temporary is removed. The process then
// dies of the signal, as it would have. A signal the process ignored when
// it started (nohup) stays ignored.
#pragma once

#include <atomic>
#include <csignal>
#include <cstddef>
#include <string>
#include <string_view>
#include <sys/types.h>

namespace numacoll {

class OutputFile {
public:
    // Opens the target, or creates the temporary: UsageError (with the
    // system's reason) when that is impossible, so that a bad -o fails
    // before any work is done.
    explicit OutputFile(std::string path);
    ~OutputFile();
    OutputFile(const OutputFile&) = delete;
    OutputFile& operator=(const OutputFile&) = delete;

    // Writes all of `text` at once; Error (exit 1) when the write fails.
    void write(std::string_view text);
    // Everything written so far is whole (finished rows): an interruption
    // puts exactly that in place, instead of removing the file.
    void mark_complete() { pending_.complete_bytes.store(written_bytes_); }
    bool has_complete_text() const { return pending_.complete_bytes.load() >= 0; }
    // Puts the written text in place (rename, or nothing for a target
    // written through); Error when that fails. Later writes are refused.
    void commit();
    // Puts the text marked complete in place, without what came after it
    // (a run that failed keeps its finished rows); nothing when none was marked.
    void commit_complete();

    const std::string& path() const { return path_; }
    // True when the bytes go straight to the target (a device, a FIFO, a descriptor).
    bool writes_through() const { return temporary_.empty(); }

    // What the interrupt handler reads. The paths and the descriptor are set
    // before the entry is published and unchanged until it is withdrawn.
    struct Pending {
        const char* temporary = nullptr;
        const char* target = nullptr;
        int fd = -1;
        std::atomic<off_t> complete_bytes{-1};  // -1: nothing to keep
    };

private:
    std::string path_;     // as given, for messages
    std::string target_;   // what the rename replaces (symlinks followed)
    std::string temporary_;  // empty when writing through
    int fd_ = -1;
    bool own_fd_ = true;
    bool committed_ = false;
    off_t written_bytes_ = 0;
    Pending pending_;
    int slot_ = -1;  // in the interrupt handler's table, -1 if none
};

// Follows symlinks to the path they finally name (which may not exist);
// UsageError for a loop.
std::string final_target(const std::string& path);

// Opens, writes and commits: a whole output at once.
void write_output_file(const std::string& path, std::string_view text);

// For the companions of a run's outputs (a trace beside its CSV, a summary
// beside its rows): empties what an earlier run left at `path` before this
// one starts, so that an interrupted run never leaves its own rows beside
// another run's summary. A regular file is removed; the regular file a
// symlink leads to is emptied (the link stays); a device, a FIFO or nothing
// is left alone.
void discard_earlier_output(const std::string& path);

// A folder of outputs being written (common/output_folder.hpp), as the
// interrupt handler sees it once the pending files are dealt with: what the
// run finished moves from `staging` to `unfinished`; a staging folder that
// holds nothing is removed, and with it `created` (the folder itself, when
// the run made it and it is empty). Set before it is published, unchanged
// until withdrawn.
struct PendingFolder {
    const char* staging = nullptr;
    const char* marker = nullptr;       // a file inside `staging` naming the run
    const char* marker_text = nullptr;  // what it holds
    std::size_t marker_bytes = 0;
    const char* unfinished = nullptr;
    const char* created = nullptr;      // null when the folder existed before
};
// Publishes `folder` to the handler (-1 when its table is full: the folder
// is then settled by its owner only); withdraw with the slot.
int publish_pending_folder(const PendingFolder* folder);
void withdraw_pending_folder(int slot);
// What the handler does for a folder, for its owner to do the same when a
// run fails: only async-signal-safe calls.
void settle_unfinished_folder(const PendingFolder& folder);

// A child process writing into this process's outputs (a plotting script),
// ended by the handler before it cleans up; 0 for none.
void set_child_to_stop(pid_t child);

// Installs the handler described above for SIGINT, SIGTERM and SIGHUP
// (those the process does not ignore).
void install_interrupt_cleanup();

// Holds SIGINT, SIGTERM and SIGHUP back in this thread while it lives (a
// folder's commit, which must not stop halfway), and delivers them after.
class InterruptsHeld {
public:
    InterruptsHeld();
    ~InterruptsHeld();
    InterruptsHeld(const InterruptsHeld&) = delete;
    InterruptsHeld& operator=(const InterruptsHeld&) = delete;

private:
    sigset_t previous_;
};

// For a child process that must not act on its parent's files (the
// simulation's fork): gives those signals back the actions they had before
// install_interrupt_cleanup().
void reset_interrupt_cleanup();

// For worker threads (the executor's): leaves those signals to the thread
// that owns the output files, so that the handler never runs beside it.
void block_interrupts_in_this_thread();

}  // namespace numacoll
