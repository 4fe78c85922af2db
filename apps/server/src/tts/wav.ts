/** A RIFF/WAVE file of 16-bit mono PCM `samples` at `sampleRate`. */
export function encodeWav(samples: Int16Array, sampleRate: number): Buffer {
  const data = samples.length * 2;
  const out = Buffer.alloc(44 + data);
  out.write("RIFF", 0, "ascii");
  out.writeUInt32LE(36 + data, 4);
  out.write("WAVE", 8, "ascii");
  out.write("fmt ", 12, "ascii");
  out.writeUInt32LE(16, 16);
  out.writeUInt16LE(1, 20); // PCM
  out.writeUInt16LE(1, 22); // mono
  out.writeUInt32LE(sampleRate, 24);
  out.writeUInt32LE(sampleRate * 2, 28);
  out.writeUInt16LE(2, 32);
  out.writeUInt16LE(16, 34);
  out.write("data", 36, "ascii");
  out.writeUInt32LE(data, 40);
  Buffer.from(samples.buffer, samples.byteOffset, data).copy(out, 44);
  return out;
}

/** Duration in ms of a PCM WAV file, from its header; null when it is not one. */
export function wavDurationMs(wav: Buffer): number | null {
  if (wav.length < 44 || wav.toString("ascii", 0, 4) !== "RIFF" || wav.toString("ascii", 8, 12) !== "WAVE") return null;
  const byteRate = wav.readUInt32LE(28);
  const dataIndex = wav.indexOf("data", 12, "ascii");
  if (byteRate === 0 || dataIndex < 0 || dataIndex + 8 > wav.length) return null;
  return Math.round((wav.readUInt32LE(dataIndex + 4) / byteRate) * 1000);
}
