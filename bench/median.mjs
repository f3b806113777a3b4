// The median the benchmarks report (the lower middle value of an even count, so it is always a measured value).
export const median = (values) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];
