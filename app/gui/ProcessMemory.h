#pragma once
// How the window's process keeps its resident memory flat over a long session.

namespace astrolabe::gui {

/// Serves every heap block of 1 MiB or more from its own mapping, returned to the system when
/// freed. glibc otherwise raises that threshold as large blocks are freed (up to 32 MiB) and
/// then keeps the large blocks of finished runs and sweeps in the worker threads' heaps, so
/// resident memory climbs while the memory in use does not (the soak scenario,
/// tests/app/gui/SoakScenarioTest.cpp). Limiting the number of heaps instead would make the GUI
/// thread wait for the workers' heap locks. Call once, first thing in main().
void configureHeap();

} // namespace astrolabe::gui
