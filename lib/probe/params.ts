import { z } from "zod";

/** Route params {id} of a probe route. */
export const probeIdParams = z.object({
  id: z
    .string()
    .regex(/^\d{1,9}$/, "must be a probe id (a positive integer)")
    .transform(Number),
});
