#pragma once
// Live figures of the platform under the dimension stack: NPU count, per-NPU injection and
// bisection bandwidth (formulas in TopologyMath.h), the memory tier (type, bandwidth per NPU,
// MemoryTierMath.h) when there is one, and every validation problem in red.
#include "spec/MemoryConfig.h"
#include "spec/PlatformSpec.h"

#include <QLabel>

namespace astrolabe::widgets {

class TopologyFigures : public QLabel {
    Q_OBJECT
public:
    explicit TopologyFigures(QWidget* parent = nullptr);
    void setPlatform(const PlatformSpec& platform, const RemoteMemoryConfig& memory = {});
    bool showsProblems() const { return m_problems; }

private:
    bool m_problems = false;
};

} // namespace astrolabe::widgets
