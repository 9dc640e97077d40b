//! Stopwatch and timer (timer.h). (to be written)
