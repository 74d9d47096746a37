// Package sweep is an architect's design-space sweep (`vortex sweep`): a base
// configuration crossed with swept configuration keys, each configuration
// running CGLTrace replays, scene files and benchmark meshes on the device
// model, one output row per (configuration, workload, frame) with every
// counter the replay and render paths expose, the wall time and a hash of
// the image.
//
// Rows come in a fixed order — configurations in axis order (the first axis
// outermost), then workloads in command-line order, then frames — and each
// carries its index in that order (the row column). A shard I/N runs the rows
// whose index mod N is I-1; Merge restores the single-process file from the
// shards by that index; --resume keys rows by configuration, workload, size
// and frame. Everything but wall_ms is a function of the sweep's arguments,
// whatever the shard or worker count.
//
// The configuration keys are the TOML file's (config package): an axis value
// is accepted exactly when the same key = value in a --config file would be,
// because each is decoded and validated by config.Parse.
package sweep
