#include "common/output_folder.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>

#include "common/error.hpp"
#include "common/text_file.hpp"

namespace numacoll {

namespace fs = std::filesystem;

namespace {

constexpr const char* staging_prefix = ".numacoll-run-";
constexpr const char* unfinished_prefix = "unfinished-";
constexpr const char* marker_name = ".numacoll-unfinished";
// A manifest lists file names: far below this.
constexpr std::uint64_t manifest_cap_bytes = 4u << 20;

bool is_regular(const std::string& path) {
    struct stat info {};
    return ::lstat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode);
}

bool is_directory_entry(const std::string& path) {
    struct stat info {};
    return ::lstat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode);
}

// A name the manifest may hold: a plain file name of this folder.
bool plain_name(const std::string& name) {
    return !name.empty() && name != "." && name != ".." && name.find('/') == std::string::npos &&
           name.find('\0') == std::string::npos && name != folder_manifest_name;
}

// "PREFIX<digits>": the folders runs leave.
std::optional<long> run_number(const std::string& name, const std::string& prefix) {
    if (!name.starts_with(prefix) || name.size() == prefix.size() || name.size() > prefix.size() + 10) return std::nullopt;
    for (std::size_t i = prefix.size(); i < name.size(); ++i)
        if (name[i] < '0' || name[i] > '9') return std::nullopt;
    return std::stol(name.substr(prefix.size()));
}

// A file this run wrote, whole (no cap: it is the run's own output).
std::string whole_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    if (!in && !in.eof()) throw Error(fmt::format("cannot read '{}': {}", path, std::strerror(errno)));
    return text.str();
}

std::string canonical_or_same(const std::string& path) {
    std::error_code error;
    const fs::path resolved = fs::weakly_canonical(fs::absolute(path, error), error);
    return error ? path : resolved.string();
}

}  // namespace

OutputFolder::OutputFolder(std::string path, std::string about, Scope scope)
    : path_(std::move(path)), about_(std::move(about)), scope_(std::move(scope)) {
    if (path_.empty()) throw UsageError("an output folder's path is empty");
    const auto refuse = [&](const std::string& why) {
        return UsageError(fmt::format("cannot write into folder '{}': {}", path_, why));
    };
    folder_ = final_target(path_);
    struct stat info {};
    if (::stat(folder_.c_str(), &info) == 0) {
        if (!S_ISDIR(info.st_mode)) throw refuse("it is a file, not a folder");
    } else {
        std::error_code error;
        fs::create_directories(folder_, error);
        if (error) throw refuse(error.message());
        created_folder_ = true;
    }
    lock_fd_ = ::open(folder_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (lock_fd_ < 0) throw refuse(std::strerror(errno));
    if (::flock(lock_fd_, LOCK_EX | LOCK_NB) != 0) {
        const int error = errno;
        std::string holder;
        std::error_code ignored;
        for (const auto& entry : fs::directory_iterator(folder_, ignored))
            if (const auto number = run_number(entry.path().filename().string(), staging_prefix))
                holder = fmt::format(" (process {})", *number);
        ::close(lock_fd_);
        lock_fd_ = -1;
        if (error == EWOULDBLOCK)
            throw UsageError(fmt::format("folder '{}' is being written by another numacoll run{}: wait for it to "
                                         "finish, or write elsewhere",
                                         path_, holder));
        // A file system without locks: the run goes on unguarded.
    }
    remove_stale_runs();
    staging_ = (fs::path(folder_) / fmt::format("{}{}", staging_prefix, ::getpid())).string();
    unfinished_ = (fs::path(folder_) / fmt::format("{}{}", unfinished_prefix, ::getpid())).string();
    marker_ = (fs::path(staging_) / marker_name).string();
    marker_text_ = fmt::format(
        "What a numacoll run ({}) finished before it stopped. The folder above holds the files of the last run "
        "that finished; the next one removes this folder.\n",
        about_);
    if (::mkdir(staging_.c_str(), 0777) != 0) {
        const int error = errno;
        ::close(lock_fd_);
        if (created_folder_) ::rmdir(folder_.c_str());
        throw refuse(std::strerror(error));
    }
    try {
        write_output_file(marker_, marker_text_);
    } catch (const Error&) {
        ::rmdir(staging_.c_str());
        ::close(lock_fd_);
        if (created_folder_) ::rmdir(folder_.c_str());
        throw;
    }
    pending_.staging = staging_.c_str();
    pending_.marker = marker_.c_str();
    pending_.marker_text = marker_text_.c_str();
    pending_.marker_bytes = marker_text_.size();
    pending_.unfinished = unfinished_.c_str();
    pending_.created = created_folder_ ? folder_.c_str() : nullptr;
    slot_ = publish_pending_folder(&pending_);
}

OutputFolder::~OutputFolder() {
    withdraw_pending_folder(slot_);
    if (!committed_) {
        // The files' own writers are gone by now (they are made after the
        // folder): what they finished is in the staging folder.
        const InterruptsHeld held;
        settle_unfinished_folder(pending_);
    }
    if (lock_fd_ >= 0) ::close(lock_fd_);
}

std::string OutputFolder::file(const std::string& name) const { return (fs::path(staging_) / name).string(); }

std::string OutputFolder::final_path(const std::string& name) const { return (fs::path(path_) / name).string(); }

std::string OutputFolder::earlier(const std::string& name) const { return (fs::path(folder_) / name).string(); }

std::vector<std::string> OutputFolder::earlier_manifest() const {
    std::vector<std::string> names;
    const std::string manifest = earlier(folder_manifest_name);
    if (!is_regular(manifest)) return names;
    std::string text;
    try {
        text = read_text_file(manifest, "folder manifest", manifest_cap_bytes);
    } catch (const Error&) {
        return names;  // unreadable: nothing of it is removed
    }
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);)
        if (!line.starts_with("#") && plain_name(line)) names.push_back(line);
    return names;
}

bool OutputFolder::would_remove(const std::string& path) const {
    const fs::path resolved(canonical_or_same(path));
    if (resolved.parent_path() != fs::path(canonical_or_same(folder_))) return false;
    const std::string name = resolved.filename().string();
    const auto listed = earlier_manifest();
    if (std::find(listed.begin(), listed.end(), name) != listed.end()) return !scope_.replaces || scope_.replaces(name);
    return scope_.also_earlier && scope_.also_earlier(name);
}

void OutputFolder::remove_stale_runs() const {
    std::error_code ignored;
    for (const auto& entry : fs::directory_iterator(folder_, ignored)) {
        const std::string name = entry.path().filename().string();
        const bool stale_staging = run_number(name, staging_prefix) && entry.path().string() != staging_;
        const bool unfinished = run_number(name, unfinished_prefix).has_value();
        if (!(stale_staging || (unfinished && committed_)) || !is_directory_entry(entry.path().string())) continue;
        if (is_regular((entry.path() / marker_name).string())) fs::remove_all(entry.path(), ignored);
    }
}

std::string OutputFolder::working_file(const std::string& name) {
    working_.insert(name);
    return file(name);
}

void OutputFolder::commit() {
    if (committed_) return;
    // Nothing in between: an interruption waits until the folder is whole.
    const InterruptsHeld held;
    std::vector<std::string> written;
    std::error_code error;
    for (const auto& entry : fs::directory_iterator(staging_, error)) {
        const std::string name = entry.path().filename().string();
        if (name == marker_name) continue;
        if (working_.count(name)) {
            ::unlink(file(name).c_str());
            continue;
        }
        written.push_back(name);
    }
    if (error) throw Error(fmt::format("cannot read folder '{}': {}", staging_, error.message()));
    std::sort(written.begin(), written.end());
    for (const std::string& name : written)
        if (!is_regular(file(name)))
            throw Error(fmt::format("'{}' is not a file: a run writes files into its folder", file(name)));

    // What stays of the earlier run: the files this run does not replace.
    std::vector<std::string> kept;
    std::vector<std::string> removed;
    const std::set<std::string> written_set(written.begin(), written.end());
    for (const std::string& name : earlier_manifest()) {
        if (written_set.count(name)) continue;
        if (scope_.replaces && !scope_.replaces(name)) {
            if (is_regular(earlier(name))) kept.push_back(name);
        } else {
            removed.push_back(name);
        }
    }
    if (scope_.also_earlier)
        for (const auto& entry : fs::directory_iterator(folder_, error)) {
            const std::string name = entry.path().filename().string();
            if (plain_name(name) && !written_set.count(name) && scope_.also_earlier(name) &&
                std::find(kept.begin(), kept.end(), name) == kept.end())
                removed.push_back(name);
        }

    // First the targets that are not regular files (a link, a device, a
    // pipe): written through, which can fail; then renames, which do not.
    for (const std::string& name : written) {
        const std::string target = earlier(name);
        struct stat info {};
        if (::lstat(target.c_str(), &info) != 0 || S_ISREG(info.st_mode)) continue;
        if (S_ISDIR(info.st_mode))
            throw Error(fmt::format("cannot write '{}': a folder is in the way", final_path(name)));
        OutputFile through(target);
        through.write(whole_file(file(name)));
        through.commit();
        ::unlink(file(name).c_str());
    }
    for (const std::string& name : written)
        if (is_regular(file(name)) && ::rename(file(name).c_str(), earlier(name).c_str()) != 0)
            throw Error(fmt::format("cannot write '{}': {}", final_path(name), std::strerror(errno)));
    for (const std::string& name : removed)
        if (is_regular(earlier(name))) ::unlink(earlier(name).c_str());

    std::string manifest = fmt::format("# The files numacoll wrote here, all from one run: {}\n", about_);
    std::vector<std::string> listed = kept;
    listed.insert(listed.end(), written.begin(), written.end());
    std::sort(listed.begin(), listed.end());
    for (const std::string& name : listed) manifest += name + "\n";
    write_output_file(earlier(folder_manifest_name), manifest);

    ::unlink(marker_.c_str());
    ::rmdir(staging_.c_str());
    committed_ = true;
    withdraw_pending_folder(slot_);
    slot_ = -1;
    remove_stale_runs();
}

}  // namespace numacoll
