/**
 * Flags of every Node process the stack starts. kafkajs 2.2.4 trips Node 24's
 * TimeoutNegativeWarning (tulios/kafkajs#1751, unfixed upstream): harmless, but it would open every
 * service log with a stack of noise.
 */
export const nodeFlags = ['--enable-source-maps', '--disable-warning=TimeoutNegativeWarning'];
