// Reading a whole text file with errors that name it. Every module reads its
// inputs (topology XML, schedules, parameter sets) through this, so a
// missing, unreadable or directory path always fails the same way:
// InputError, one line, the system's reason ("Is a directory").
#pragma once

#include <string>

namespace numacoll {

// `what` names the kind of file in the message: "cannot read params 'x.json': ..."
std::string read_text_file(const std::string& path, const std::string& what);

}  // namespace numacoll
