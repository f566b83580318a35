#include "cli/LessonCommand.h"

#include "cli/Commands.h"
#include "lesson/LessonRun.h"

#include <iomanip>
#include <ostream>

namespace astrolabe::cli {

ArgParser lessonParser() {
    return ArgParser("lesson",
                     "Check a lesson (docs/lessons.md): 'lesson check LESSON.md' reads it, runs "
                     "every \"Try it\" step and compares each number its text quotes with the "
                     "run. Exit 1 when one disagrees.",
                     {}, {"ACTION", "LESSON.md"});
}

int lessonCommand(const ParsedArgs& args, std::ostream& out, std::ostream& err) {
    if (args.positional().at(0) != "check") {
        err << "astrolabe-cli lesson: unknown action \"" << args.positional()[0]
            << "\" (expected: check)\n";
        return kExitUsage;
    }
    const Lesson lesson = loadLesson(args.positional().at(1));
    int wrong = 0;
    for (const QuoteCheck& check : checkLessonQuotes(lesson)) {
        out << lesson.file << ":" << check.quote.line << ": step " << check.quote.step + 1 << " [["
            << check.quote.metric << "=" << check.quote.value << "]] ";
        if (!check.error.empty())
            out << "cannot be measured: " << check.error << "\n";
        else
            out << "measured " << std::setprecision(10) << check.measured
                << (check.agrees ? " ok" : " DISAGREES") << "\n";
        wrong += check.agrees ? 0 : 1;
    }
    out << lesson.stepCount() << " steps, " << lesson.quotes.size() << " quoted numbers, " << wrong
        << " disagreeing\n";
    return wrong == 0 ? kExitOk : kExitFailure;
}

} // namespace astrolabe::cli
