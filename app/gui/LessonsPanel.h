#pragma once
// The Lessons panel: a lesson chooser and the lesson's text (docs/lessons.md) rendered as
// Markdown beside the live project. "Try it" steps are links that ask for the step to run;
// questions show their answer when their "Show answer" link is clicked (and hide it on "Hide
// answer"), and the numbers a step's run gives appear once the step has run. The panel holds no
// project and runs nothing: LessonsController answers its signals.

#include "lesson/Lesson.h"

#include <QStringList>
#include <QWidget>
#include <set>

class QComboBox;
class QLabel;
class QTextBrowser;

namespace astrolabe::gui {

class LessonsPanel : public QWidget {
    Q_OBJECT
public:
    explicit LessonsPanel(QWidget* parent = nullptr);

    /// The lessons to choose from: their titles and lesson.md paths, in order.
    void setLessons(const QStringList& titles, const QStringList& paths);
    /// Shows `lesson` (all answers hidden) and selects it in the chooser.
    void showLesson(const Lesson& lesson);
    /// One line under the text: the last step's outcome, or an error.
    void setStatus(const QString& text);
    QString status() const;
    /// Reveals question `index` (0-based, in the order of the text); its "Hide answer" link
    /// hides it again.
    void revealAnswer(int index);
    void hideAnswer(int index);
    /// Step `step` (0-based) ran: the numbers the text quotes of its run are shown. Until
    /// then they read "(run step N)", so that a class predicts before it measures.
    void markStepRun(int step);
    /// Selects the lesson at `path` in the chooser, or none (the lesson shown stays).
    void selectLesson(const QString& path);

    /// The Markdown shown (for tests): markers replaced by their values, links for the steps.
    QString markdown() const;
    QTextBrowser* browser() const { return m_text; }

signals:
    /// The reader chose another lesson in the chooser.
    void lessonChosen(const QString& path);
    /// The reader clicked a step's "Try it" link (0-based step).
    void tryRequested(int step);

private:
    void render();

    QComboBox* m_chooser;
    QTextBrowser* m_text;
    QLabel* m_status;
    QStringList m_paths;
    Lesson m_lesson;
    std::set<int> m_revealed;
    std::set<int> m_ran; ///< steps run since the lesson was shown
};

} // namespace astrolabe::gui
