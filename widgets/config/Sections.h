#pragma once
// The configuration sections: which fields exist, their key paths, ranges and the plain-words
// tooltips. One function per section (SystemSection.cpp, MemorySection.cpp, RunSection.cpp).

class QWidget;

namespace astrolabe::widgets {

class ConfigSection;

ConfigSection* createCollectivesSection(QWidget* parent);
ConfigSection* createSystemSection(QWidget* parent);
ConfigSection* createMemorySection(QWidget* parent);
ConfigSection* createRunSection(QWidget* parent);
ConfigSection* createWorkloadSection(QWidget* parent);

} // namespace astrolabe::widgets
