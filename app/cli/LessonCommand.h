#pragma once
// astrolabe-cli lesson check LESSON.md: runs every "Try it" step of a lesson (docs/lessons.md)
// and compares each number its text quotes ([[metric=value]]) with the run.

#include "cli/ArgParser.h"

#include <iosfwd>

namespace astrolabe::cli {

ArgParser lessonParser();
int lessonCommand(const ParsedArgs& args, std::ostream& out, std::ostream& err);

} // namespace astrolabe::cli
