#pragma once
// astrolabe-cli settings: the settings schema as text (--markdown: the docs tables; --update-doc
// FILE: rewrites the generated tables of docs/project-format.md in place).

#include "cli/ArgParser.h"

#include <iosfwd>

namespace astrolabe::cli {

ArgParser settingsParser();
int settingsCommand(const ParsedArgs& args, std::ostream& out, std::ostream& err);

} // namespace astrolabe::cli
