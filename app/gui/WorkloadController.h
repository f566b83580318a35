#pragma once
// The Workload tab's model builder and the runs of the training iterations it generates. Its
// edits are steps of the project's one undo history (a field typed digit by digit is one
// step); it refits the parallelism when the project's NPU count changes and takes the
// project's `platform.accelerator` as the builder's GPU when it changes; "Generate and Run"
// queues a run whose traces are generated on the worker thread.

#include "generate/GeneratorSpec.h"

#include <QObject>
#include <string>

namespace astrolabe::widgets {
class ModelBuilderPanel;
} // namespace astrolabe::widgets

namespace astrolabe::gui {

class ProjectController;
class RunSession;

class WorkloadController : public QObject {
    Q_OBJECT
public:
    /// All three are observed, not owned.
    WorkloadController(widgets::ModelBuilderPanel* panel, ProjectController* project,
                       RunSession* runs, QObject* parent = nullptr);

    /// Runs a generated training iteration on the project's platform; 0 (after errorOccurred)
    /// without a project or when the NPU counts differ.
    int startGeneratedRun(const generate::GeneratorSpec& generator);
    /// Sets the model builder to `spec` as one step of the project's undo history, named
    /// `description` (the Planner panel's "Apply"); undo restores the builder as it was.
    void applySpec(const generate::GeneratorSpec& spec, const QString& description);

signals:
    void errorOccurred(const QString& title, const QString& message, const QString& keyPath);

private:
    /// Sets the builder's accelerator to the platform's `name` when it differs from the one
    /// last followed ("" or an unknown name: the builder keeps its own).
    void followAccelerator(const std::string& name);

    widgets::ModelBuilderPanel* m_panel;
    ProjectController* m_project;
    RunSession* m_runs;
    generate::GeneratorSpec m_shown;   ///< the panel's spec as last recorded
    std::string m_platformAccelerator; ///< the project's accelerator last followed
    bool m_followingProject = false;   ///< inside followAccelerator: no undo step
};

} // namespace astrolabe::gui
