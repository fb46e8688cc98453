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
// has run): the temporary of a file that was told keep_on_interrupt() is
// renamed into place, so that a sweep interrupted after some points keeps
// the rows it finished (every row is written whole, in one write); every
// other temporary is removed. The process then dies of the signal, as it
// would have.
#pragma once

#include <csignal>
#include <string>
#include <string_view>

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
    // From now on an interruption puts what was written in place instead of
    // removing it: call it once the text is worth keeping (finished rows).
    void keep_on_interrupt() { pending_.keep_written = 1; }
    // Puts the written text in place (rename, or nothing for a target
    // written through); Error when that fails. Later writes are refused.
    void commit();

    const std::string& path() const { return path_; }
    // True when the bytes go straight to the target (a device, a FIFO, a descriptor).
    bool writes_through() const { return temporary_.empty(); }

    // What the interrupt handler reads: set before the entry is published,
    // unchanged until it is withdrawn.
    struct Pending {
        const char* temporary = nullptr;
        const char* target = nullptr;
        volatile std::sig_atomic_t keep_written = 0;
    };

private:
    void close_descriptor();

    std::string path_;     // as given, for messages
    std::string target_;   // what the rename replaces (symlinks followed)
    std::string temporary_;  // empty when writing through
    int fd_ = -1;
    bool own_fd_ = true;
    bool committed_ = false;
    Pending pending_;
    int slot_ = -1;  // in the interrupt handler's table, -1 if none
};

// Opens, writes and commits: a whole output at once.
void write_output_file(const std::string& path, std::string_view text);

// Installs the handler described above for SIGINT, SIGTERM and SIGHUP.
void install_interrupt_cleanup();

// For a child process that must not act on its parent's files (the
// simulation's fork): restores the default action of those signals.
void reset_interrupt_cleanup();

}  // namespace numacoll
