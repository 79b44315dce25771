/** An account's monthly statement as `GET /api/account/statements/{YYYY-MM}` answers it (micro-USD); the portal reads this type. */
export interface Statement {
  month: string;
  topUpsMicros: number;
  bonusesMicros: number;
  plansMicros: number;
  rebatesMicros: number;
  refundsMicros: number;
  /** Rebates paid out (requests net of rejections): they leave the wallet when asked for. */
  withdrawalsMicros: number;
  adjustmentsMicros: number;
  usage: Array<{ model: string; requests: number; costMicros: number }>;
  usageMicros: number;
  closingBalanceMicros: number;
}
