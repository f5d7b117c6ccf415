console.log("No benchmarks yet: they arrive with the quality-gates issue (#10).");
