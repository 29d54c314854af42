#define QUARTZ 24
