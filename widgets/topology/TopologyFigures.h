#pragma once
// Live figures of the platform under the dimension stack: NPU count, per-NPU injection and
// bisection bandwidth (formulas in TopologyMath.h), and every validation problem in red.
#include "config/PlatformSpec.h"

#include <QLabel>

namespace astrolabe::widgets {

class TopologyFigures : public QLabel {
    Q_OBJECT
public:
    explicit TopologyFigures(QWidget* parent = nullptr);
    void setPlatform(const PlatformSpec& platform);
    bool showsProblems() const { return m_problems; }

private:
    bool m_problems = false;
};

} // namespace astrolabe::widgets
