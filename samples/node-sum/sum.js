/** Returns a + b. */
exports.sum = (a, b) => a - b;
