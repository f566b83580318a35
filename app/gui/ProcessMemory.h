#pragma once
// How the window's process keeps its resident memory flat over a long session.

namespace astrolabe::gui {

/// Serves every heap block of 1 MiB or more from its own mapping, returned to the system when
/// freed. glibc otherwise raises that threshold as large blocks are freed (up to 32 MiB), and
/// from then on keeps such blocks of finished runs and sweeps in the worker threads' heaps: over
/// the soak scenario's first 45 s resident memory climbed 11.2 % while the memory in use grew
/// 1 MB; with the fixed threshold, 3.8 % (tests/app/gui/SoakScenarioTest.cpp). Limiting the
/// heaps to two instead (6 %) made the GUI thread wait for worker threads' heap locks: the
/// torus sweep's longest event-loop stall went from about 45 to 95 ms. Call once, first thing
/// in main().
void configureHeap();

} // namespace astrolabe::gui
