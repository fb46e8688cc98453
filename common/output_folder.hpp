// A folder of outputs that shows one run's files, never two runs' mixed
// (tune, whatif, reproduce, overlap, validate, demo and plot write one).
//
// - The run writes into a staging folder inside the folder
//   (DIR/.numacoll-run-PID, hidden); the folder shows the earlier run's
//   files, untouched, until commit().
// - commit() moves the run's files in, removes the earlier run's files that
//   this run did not write, and lists the run's files in the folder's
//   manifest (DIR/.numacoll-run). What numacoll did not write (a file the
//   user put there) is never touched. An earlier run's file that is now a
//   symlink, a device or a pipe is written through, never replaced. SIGINT,
//   SIGTERM and SIGHUP wait until the commit is done.
// - A run that fails or is interrupted leaves the earlier files as they
//   were: what it finished (the rows of its sweeps, files written whole)
//   moves to DIR/unfinished-PID, and nothing else of it stays (a folder it
//   created and left empty goes too). The next run that commits removes
//   those unfinished folders.
// - Two runs into one folder: the second refuses with one line while the
//   first holds it (an advisory lock on the folder, held until commit or
//   destruction).
// - A folder path that is a symlink is followed: its target is the folder.
//
// Invariant: the files of the folder that numacoll wrote are those of its
// manifest, all from one run.
#pragma once

#include <functional>
#include <set>
#include <string>
#include <vector>

#include "common/output_file.hpp"

namespace numacoll {

// The manifest's name inside the folder.
inline constexpr const char* folder_manifest_name = ".numacoll-run";

class OutputFolder {
public:
    // Which of the earlier run's files a run replaces: all (the default), or
    // some (numacoll plot replaces the pictures only; the other files stay
    // and stay in the manifest).
    struct Scope {
        std::function<bool(const std::string& name)> replaces;
        // Files not in the manifest that are nonetheless an earlier run's
        // (pictures of a folder written before manifests existed).
        std::function<bool(const std::string& name)> also_earlier;
    };

    // Locks the folder (creating it, and the folders above it, when missing)
    // and makes the staging folder: UsageError when it cannot be written or
    // another run holds it. `about` heads the manifest (the command, numacoll's version).
    OutputFolder(std::string path, std::string about, Scope scope = {});
    ~OutputFolder();
    OutputFolder(const OutputFolder&) = delete;
    OutputFolder& operator=(const OutputFolder&) = delete;

    // Where this run writes its file `name` (in the staging folder).
    std::string file(const std::string& name) const;
    // Where this run keeps its file `name` while it works (a sweep's
    // finished points): a failed or interrupted run leaves it with its
    // unfinished files, and commit() removes it instead of putting it in place.
    std::string working_file(const std::string& name);
    const std::string& staging() const { return staging_; }
    // The folder as the user named it, and the path its file `name` has
    // once committed (for messages).
    const std::string& path() const { return path_; }
    std::string final_path(const std::string& name) const;
    // The earlier run's file `name`, in the folder itself (for a run that
    // reads what the last one left, such as a calibration to reuse).
    std::string earlier(const std::string& name) const;
    // Whether `path` (any spelling, links followed) is a file of the earlier
    // run that this run would replace or remove.
    bool would_remove(const std::string& path) const;

    // Puts the run's files in place (above); Error when that fails. Once
    // committed, the destructor does nothing.
    void commit();

private:
    std::vector<std::string> earlier_manifest() const;
    void remove_stale_runs() const;

    std::set<std::string> working_;  // working_file()'s names
    std::string path_;        // as given
    std::string folder_;      // the folder itself (symlinks followed)
    std::string staging_;     // folder_/.numacoll-run-PID
    std::string marker_;      // staging_/.numacoll-run-marker
    std::string marker_text_;
    std::string unfinished_;  // folder_/unfinished-PID
    std::string about_;
    Scope scope_;
    bool created_folder_ = false;
    int lock_fd_ = -1;
    bool committed_ = false;
    PendingFolder pending_;
    int slot_ = -1;
};

}  // namespace numacoll
