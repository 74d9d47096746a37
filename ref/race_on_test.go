//go:build race

package ref

// raceBuild reports a -race build, where sync.Pool drops a random share of
// what is put back (so pooled buffers are sometimes allocated again).
const raceBuild = true
