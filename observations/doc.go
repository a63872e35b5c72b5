// Package observations encodes step batches, the [env.Buffers] a pool
// writes every step, as Apache Arrow record batches and Arrow IPC messages,
// and decodes them back. It is the only package of botarena that imports
// Arrow (github.com/apache/arrow-go/v18); it imports env and Arrow only.
//
// # Schema
//
// A step batch has one row per agent (agent = env × seats + seat, in the
// pool's row order) and these columns, in this order ([Schema]):
//
//	<tensor>    FixedSizeList<uint8|float32|int32>[Tensor.Len()]  one per Spec.Obs tensor, in order
//	mask        FixedSizeList<uint8>[Spec.Actions]                1 legal, 0 not
//	reward      float32
//	terminated  bool
//	truncated   bool
//	env         int32                                             the row's env index
//	seat        int32                                             the row's seat
//	episode     int32                                             the env's episode number
//
// No column has nulls; list children are non-nullable fields named "item".
// Each tensor field and the mask field carry metadata: "shape", the per-row
// shape as a JSON array ("[12,21,21]"), "dtype", the numpy element type
// ("uint8", "float32", "int32"), and "layout", the tensor's documented axes
// and index formula. A tensor's values are stored row after row, each row in
// C order, so that the values of column "planes" of n rows are exactly an
// [n, 12, 21, 21] array. The schema metadata carries the game: "game",
// "seats", "actions", "action_names" (a JSON array), "max_steps" and
// "reward" (the reward definition in words); [SpecFromSchema] rebuilds the
// [env.Spec] from it. For 4-player Bomberman: planes uint8 [12,21,21],
// scalars float32 [8], mask [7].
//
// # Zero copy
//
// An [Encoder] is made once per pool, for the pool's spec and row count.
// [Encoder.Record] returns a record batch that wraps the pool's buffers
// without copying: tensors, mask, rewards and ids are Arrow buffers over the
// buffers' own memory (memory.NewBufferBytes; float32 and int32 slices are
// viewed as bytes). Arrow booleans are bit-packed, so terminated and
// truncated are packed into two small bitmaps owned by the Encoder, Rows/8
// bytes each: packing them, eight rows per multiply, is the only per-batch
// work besides the IPC headers. The record aliases the buffers and is valid
// until the next step overwrites them (or the Encoder's next call); the
// Arrow headers over the same buffers are built once and reused.
//
// # The wire
//
// The messages are standard Arrow IPC encapsulated messages (continuation
// marker 0xFFFFFFFF, int32 metadata length, flatbuffer Message, padding to 8
// bytes, then the body, each buffer padded to 8 bytes). The schema message
// ([SchemaMessage]) is sent once, when a pool is created; each step sends
// only a record-batch message ([Encoder.AppendBatchMessage]), which appends
// into a caller slice reused from step to step. Concatenating the schema
// message, the batch messages and an end-of-stream marker (0xFFFFFFFF
// 0x00000000) gives a valid Arrow IPC stream. With [WithZstd] the body is
// compressed with Arrow IPC body compression (codec ZSTD), which every Arrow
// reader undoes; use it for remote links and do not also compress the
// transport.
//
// Python reads the messages with pyarrow and gets numpy views that do not
// copy (see testdata/read_batches.py):
//
//	schema = pa.ipc.read_schema(pa.py_buffer(schema_msg))
//	batch = pa.ipc.read_record_batch(pa.py_buffer(batch_msg), schema)
//	f = schema.field("planes")
//	shape = json.loads(f.metadata[b"shape"])
//	planes = batch.column("planes").values.to_numpy(zero_copy_only=True).reshape((batch.num_rows, *shape))
//	mask = batch.column("mask").values.to_numpy(zero_copy_only=True).reshape((batch.num_rows, -1))
//	reward = batch.column("reward").to_numpy(zero_copy_only=True)
//	terminated = batch.column("terminated").to_numpy(zero_copy_only=False)  # unpacks bits
//
// The views alias the message buffer; with zstd, pyarrow decompresses into
// new buffers first. Multi-byte values are little-endian on every platform
// botarena supports (the schema records the writer's endianness).
//
// # The shared form
//
// Some channels of a tensor are the same for every seat of an env
// ([env.Tensor].Shared: a map's walls, the bombs, the power-ups), so the
// full form repeats them once per seat. The shared form, an [Encoder] made
// with [WithShared], sends them once per env: each batch is two messages
// back to back, the rows batch, whose tensor columns with shared channels
// hold only the other channels (in channel order), and the envs batch, one
// row per env (rows/envs consecutive rows each), with one column per such
// tensor, named after it, holding the shared channels (in channel order).
// The schema message ([SharedSchemaMessage]) is likewise the rows schema's
// message followed by the envs schema's; both schemas carry [PartKey]
// ("rows", "envs"), and every tensor field with shared channels carries
// [SharedKey] (its channels, "[2,3,6,7,8,9,10,11]") and the full shape, in
// both forms. A reader rebuilds row r's tensor by putting the rows batch's
// values in the channels not listed and the envs batch's row r/(rows/envs)
// in the listed ones; a [Decoder] does it and gives exactly the buffers of
// the full form. For 4-player Bomberman, 8 of the 12 planes are shared and
// a batch is 2.0 times smaller.
//
// A [Decoder] reads the messages back into [env.Buffers] (copying), for
// tests and Go clients.
//
// # Cost
//
// Encoding an uncompressed batch costs one copy of the data into the
// message plus a few dozen small allocations of the Arrow IPC writer (the
// header flatbuffer), independent of the row count; BenchmarkEncode reports
// the figures. zstd costs far more (about 1 GB/s of input on one core).
package observations
