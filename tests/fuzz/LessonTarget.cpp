// Lesson files (lesson/Lesson.h): the Markdown with its setup, try and question blocks and its
// quoted numbers, and the text the panel shows.
#include "FuzzTarget.h"
#include "lesson/Lesson.h"

ASTROLABE_FUZZ_TARGET(lesson) {
    const std::string text(input);
    const astrolabe::Lesson lesson = astrolabe::parseLesson(text, "lesson.md");
    for (const astrolabe::LessonBlock& block : lesson.blocks)
        (void)astrolabe::lessonDisplayText(block.markdown);
}
